//! Image texel conversions and sampler addressing against hand-computed values from the
//! formulas of the OpenCL SPIR-V environment spec §9.

use devlib::image::*;

fn fmt(order: ChannelOrder, ty: ChannelType) -> ImageFormat {
    ImageFormat::new(order, ty).expect("valid format")
}

#[test]
fn format_validation_and_sizes() {
    use ChannelOrder as O;
    use ChannelType as T;
    assert_eq!(fmt(O::RGBA, T::UnormInt8).element_size(), 4);
    assert_eq!(fmt(O::RGBA, T::Float).element_size(), 16);
    assert_eq!(fmt(O::RG, T::HalfFloat).element_size(), 4);
    assert_eq!(fmt(O::RGB, T::UnormShort565).element_size(), 2);
    assert_eq!(fmt(O::RGBA, T::UnormInt101010_2).element_size(), 4);
    assert_eq!(fmt(O::Rx, T::UnsignedInt16).element_size(), 4);
    assert_eq!(fmt(O::R, T::SignedInt32).texel_kind(), TexelKind::Int);
    assert!(matches!(
        ImageFormat::new(O::RGBA, T::UnormShort565),
        Err(ImageError::InvalidFormat { .. })
    ));
    assert!(ImageFormat::new(O::RGB, T::UnormInt8).is_err());
    assert!(ImageFormat::new(O::SRGBA, T::Float).is_err());
    assert!(ImageFormat::new(O::BGRA, T::Float).is_err());
    let f = fmt(O::RGBA, T::UnormInt8);
    assert!(matches!(
        read_texel(&f, &[0; 3]),
        Err(ImageError::WrongSize {
            got: 3,
            need: 4,
            ..
        })
    ));
    let mut out = [0u8; 4];
    assert!(matches!(
        write_texel(&f, Texel::Int([0; 4]), &mut out),
        Err(ImageError::KindMismatch { .. })
    ));
}

#[test]
fn normalized_reads() {
    use ChannelOrder as O;
    use ChannelType as T;
    // 0 → 0.0, 255 → 1.0, 51 → 0.2 (51/255 = 0.2 exactly, rounded to float)
    assert_eq!(
        read_texel(&fmt(O::RGBA, T::UnormInt8), &[0, 255, 51, 128]),
        Ok(Texel::Float([0.0, 1.0, 0.2, 128.0 / 255.0]))
    );
    // snorm: -128 and -127 → -1.0, 127 → 1.0
    assert_eq!(
        read_texel(&fmt(O::RGBA, T::SnormInt8), &[0x80, 0x81, 127, 0]),
        Ok(Texel::Float([-1.0, -1.0, 1.0, 0.0]))
    );
    let b = [0x00, 0x80, 0x01, 0x80, 0xff, 0x7f, 0x00, 0x00];
    assert_eq!(
        read_texel(&fmt(O::RGBA, T::SnormInt16), &b),
        Ok(Texel::Float([-1.0, -1.0, 1.0, 0.0]))
    );
    // Channel mapping: R → (R, 0, 0, 1); A → (0, 0, 0, A); BGRA memory order B, G, R, A.
    assert_eq!(
        read_texel(&fmt(O::R, T::UnormInt8), &[255]),
        Ok(Texel::Float([1.0, 0.0, 0.0, 1.0]))
    );
    assert_eq!(
        read_texel(&fmt(O::A, T::UnormInt8), &[255]),
        Ok(Texel::Float([0.0, 0.0, 0.0, 1.0]))
    );
    assert_eq!(
        read_texel(&fmt(O::BGRA, T::UnormInt8), &[255, 0, 0, 0]),
        Ok(Texel::Float([0.0, 0.0, 1.0, 0.0]))
    );
    assert_eq!(
        read_texel(&fmt(O::ARGB, T::UnsignedInt8), &[1, 2, 3, 4]),
        Ok(Texel::Uint([2, 3, 4, 1]))
    );
    assert_eq!(
        read_texel(&fmt(O::Intensity, T::UnormInt8), &[255]),
        Ok(Texel::Float([1.0; 4]))
    );
    assert_eq!(
        read_texel(&fmt(O::Luminance, T::UnormInt8), &[0]),
        Ok(Texel::Float([0.0, 0.0, 0.0, 1.0]))
    );
    assert_eq!(
        read_texel(&fmt(O::RG, T::SignedInt16), &[0xff, 0xff, 2, 0]),
        Ok(Texel::Int([-1, 2, 0, 1]))
    );
    // 565: R = 31 (1.0), G = 0, B = 31 → 0xf81f
    assert_eq!(
        read_texel(&fmt(O::RGB, T::UnormShort565), &0xf81fu16.to_le_bytes()),
        Ok(Texel::Float([1.0, 0.0, 1.0, 1.0]))
    );
    // 101010_2: R = 1023, G = 0, B = 0, A = 3
    assert_eq!(
        read_texel(
            &fmt(O::RGBA, T::UnormInt101010_2),
            &0xffc0_0003u32.to_le_bytes()
        ),
        Ok(Texel::Float([1.0, 0.0, 0.0, 1.0]))
    );
    // half: 0x3c00 = 1.0, 0xc000 = -2.0
    assert_eq!(
        read_texel(&fmt(O::RG, T::HalfFloat), &[0x00, 0x3c, 0x00, 0xc0]),
        Ok(Texel::Float([1.0, -2.0, 0.0, 1.0]))
    );
}

#[test]
fn normalized_writes() {
    use ChannelOrder as O;
    use ChannelType as T;
    let mut out = [0u8; 4];
    // 255 × 0.5 = 127.5 → 128 (even); -1 → 0; 2 → 255; NaN → 0
    write_texel(
        &fmt(O::RGBA, T::UnormInt8),
        Texel::Float([0.5, -1.0, 2.0, f32::NAN]),
        &mut out,
    )
    .unwrap();
    assert_eq!(out, [128, 0, 255, 0]);
    // 255 × 0.01 = 2.55 → 3; 255 × 0.0098 = 2.499 → 2
    write_texel(
        &fmt(O::RGBA, T::UnormInt8),
        Texel::Float([0.01, 0.0098, 1.0, 0.0]),
        &mut out,
    )
    .unwrap();
    assert_eq!(out, [3, 2, 255, 0]);
    // snorm8: 127 × -1.5 clamps to -128; 127 × 0.5 = 63.5 → 64
    write_texel(
        &fmt(O::RGBA, T::SnormInt8),
        Texel::Float([-1.5, 0.5, 1.0, -0.0]),
        &mut out,
    )
    .unwrap();
    assert_eq!(out, [0x80, 64, 127, 0]);
    // BGRA stores B first.
    write_texel(
        &fmt(O::BGRA, T::UnormInt8),
        Texel::Float([1.0, 0.0, 0.0, 1.0]),
        &mut out,
    )
    .unwrap();
    assert_eq!(out, [0, 0, 255, 255]);
    // Integer clamping (env §9.4.4).
    write_texel(
        &fmt(O::RGBA, T::SignedInt8),
        Texel::Int([300, -300, 5, -5]),
        &mut out,
    )
    .unwrap();
    assert_eq!(out, [127, 0x80, 5, 0xfb]);
    write_texel(
        &fmt(O::RGBA, T::UnsignedInt8),
        Texel::Uint([300, 0, 255, 7]),
        &mut out,
    )
    .unwrap();
    assert_eq!(out, [255, 0, 255, 7]);
    let mut out2 = [0u8; 2];
    write_texel(
        &fmt(O::RGB, T::UnormShort565),
        Texel::Float([1.0, 0.0, 1.0, 1.0]),
        &mut out2,
    )
    .unwrap();
    assert_eq!(u16::from_le_bytes(out2), 0xf81f);
    write_texel(
        &fmt(O::R, T::HalfFloat),
        Texel::Float([65520.0, 0.0, 0.0, 0.0]),
        &mut out2,
    )
    .unwrap();
    assert_eq!(u16::from_le_bytes(out2), 0x7c00); // round to nearest even overflows
    let mut out4 = [0u8; 4];
    write_texel(
        &fmt(O::R, T::Float),
        Texel::Float([1.5, 0.0, 0.0, 0.0]),
        &mut out4,
    )
    .unwrap();
    assert_eq!(f32::from_le_bytes(out4), 1.5);
}

#[test]
fn srgb_round_trip() {
    use ChannelOrder as O;
    use ChannelType as T;
    let f = fmt(O::SRGBA, T::UnormInt8);
    // 255 → 1.0, 0 → 0.0; alpha stays linear (128/255).
    assert_eq!(
        read_texel(&f, &[255, 0, 255, 128]),
        Ok(Texel::Float([1.0, 0.0, 1.0, 128.0 / 255.0]))
    );
    // sRGB 188 ≈ 0.7372549 → linear ((0.7372549 + 0.055) / 1.055)^2.4 ≈ 0.5028864
    let Ok(Texel::Float(t)) = read_texel(&f, &[188, 188, 188, 255]) else {
        panic!()
    };
    assert!((t[0] - 0.502_886_4).abs() < 1e-5, "{}", t[0]);
    // Every code round-trips through linear and back (accuracy ≤ 0.6 of a code step).
    for code in 0..=255u8 {
        let Ok(Texel::Float(t)) = read_texel(&f, &[code, code, code, code]) else {
            panic!()
        };
        let mut out = [0u8; 4];
        write_texel(&f, Texel::Float(t), &mut out).unwrap();
        assert_eq!(out, [code; 4], "code {code}");
    }
}

#[test]
fn border_colors() {
    use ChannelOrder as O;
    use ChannelType as T;
    assert_eq!(
        border_color(&fmt(O::RGBA, T::UnormInt8)),
        Texel::Float([0.0; 4])
    );
    assert_eq!(
        border_color(&fmt(O::R, T::Float)),
        Texel::Float([0.0, 0.0, 0.0, 1.0])
    );
    assert_eq!(
        border_color(&fmt(O::RG, T::SignedInt32)),
        Texel::Int([0, 0, 0, 1])
    );
    assert_eq!(
        border_color(&fmt(O::Rx, T::UnsignedInt8)),
        Texel::Uint([0; 4])
    );
    assert_eq!(
        border_color(&fmt(O::Luminance, T::UnormInt8)),
        Texel::Float([0.0, 0.0, 0.0, 1.0])
    );
}

fn sampler(normalized_coords: bool, addressing: AddressingMode, filter: FilterMode) -> Sampler {
    Sampler {
        normalized_coords,
        addressing,
        filter,
    }
}

#[test]
fn nearest_addressing() {
    use AddressingMode as A;
    let s = |a| sampler(false, a, FilterMode::Nearest);
    // Unnormalized, size 4: floor(u).
    assert_eq!(nearest_index(2.7, 4, &s(A::None)), Some(2));
    assert_eq!(nearest_index(-0.5, 4, &s(A::Clamp)), None); // -1: border
    assert_eq!(nearest_index(4.0, 4, &s(A::Clamp)), None);
    assert_eq!(nearest_index(-3.0, 4, &s(A::ClampToEdge)), Some(0));
    assert_eq!(nearest_index(9.0, 4, &s(A::ClampToEdge)), Some(3));
    assert_eq!(nearest_index(7.0, 4, &Sampler::SAMPLERLESS), None);
    let n = |a| sampler(true, a, FilterMode::Nearest);
    assert_eq!(nearest_index(0.5, 4, &n(A::ClampToEdge)), Some(2));
    // Repeat: s = 1.25 → u = 0.25 × 4 = 1; s = -0.1 → 0.9 × 4 = 3.6 → 3.
    assert_eq!(nearest_index(1.25, 4, &n(A::Repeat)), Some(1));
    assert_eq!(nearest_index(-0.1, 4, &n(A::Repeat)), Some(3));
    // Mirrored repeat: s = 1.25 → s' = |1.25 - 2| = 0.75 → 3; s = -0.25 → 0.25 → 1; s = 1.0 → 1 → min(4, 3).
    assert_eq!(nearest_index(1.25, 4, &n(A::MirroredRepeat)), Some(3));
    assert_eq!(nearest_index(-0.25, 4, &n(A::MirroredRepeat)), Some(1));
    assert_eq!(nearest_index(1.0, 4, &n(A::MirroredRepeat)), Some(3));
}

#[test]
fn linear_addressing() {
    use AddressingMode as A;
    let s = |a| sampler(false, a, FilterMode::Linear);
    // u = 1.75: floor(1.25) = 1, taps 1 and 2, a = 0.25.
    assert_eq!(
        linear_taps(1.75, 4, &s(A::ClampToEdge)),
        LinearTaps {
            i0: Some(1),
            i1: Some(2),
            a: 0.25
        }
    );
    // u = 0.25: floor(-0.25) = -1 → border for Clamp, 0 for ClampToEdge; a = 0.75.
    assert_eq!(
        linear_taps(0.25, 4, &s(A::Clamp)),
        LinearTaps {
            i0: None,
            i1: Some(0),
            a: 0.75
        }
    );
    assert_eq!(
        linear_taps(0.25, 4, &s(A::ClampToEdge)),
        LinearTaps {
            i0: Some(0),
            i1: Some(0),
            a: 0.75
        }
    );
    let n = |a| sampler(true, a, FilterMode::Linear);
    // Repeat: s = 0.0625 → u = 0.25 → i0 = -1 → 3, i1 = 0, a = 0.75.
    assert_eq!(
        linear_taps(0.0625, 4, &n(A::Repeat)),
        LinearTaps {
            i0: Some(3),
            i1: Some(0),
            a: 0.75
        }
    );
    // Repeat: s = 0.9375 → u = 3.75 → i0 = 3, i1 = 4 → 0, a = 0.25.
    assert_eq!(
        linear_taps(0.9375, 4, &n(A::Repeat)),
        LinearTaps {
            i0: Some(3),
            i1: Some(0),
            a: 0.25
        }
    );
    // Mirrored: s = 0.0625 → u = 0.25 → i0 = max(-1, 0) = 0, i1 = 0, a = 0.75.
    assert_eq!(
        linear_taps(0.0625, 4, &n(A::MirroredRepeat)),
        LinearTaps {
            i0: Some(0),
            i1: Some(0),
            a: 0.75
        }
    );
    assert_eq!(
        lerp_texel([0.0, 1.0, 2.0, 4.0], [4.0, 1.0, 0.0, 8.0], 0.25),
        [1.0, 1.0, 1.5, 5.0]
    );
}

#[test]
fn array_layers() {
    assert_eq!(array_layer(1.5, 4), 2); // rint: ties to even
    assert_eq!(array_layer(2.5, 4), 2);
    assert_eq!(array_layer(-3.0, 4), 0);
    assert_eq!(array_layer(17.2, 4), 3);
}
