//! SPIR-V for the OpenCL environment: grammar tables, module model, binary reader and writer,
//! disassembler, builder, and the environment validator (`valid`).
