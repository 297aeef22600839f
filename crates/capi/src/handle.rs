//! Handles: every `cl_*` object is an `Arc<Obj<T>>` whose address is the handle. `Obj` starts
//! with the ICD dispatch table pointer (`cl_khr_icd`: "the first member of every object").
//!
//! A registry of live handles and their kinds lets every entry point check a handle before using
//! it, so a stale or foreign pointer gives `CL_INVALID_*` instead of a crash. The API reference
//! count (`clRetain*`/`clRelease*`) is kept apart from the `Arc` count: objects that refer to
//! others (a queue to its context, a kernel to its program) hold `Arc`s, which keeps those
//! handles valid as the specification requires ("the context is deleted once ... all the
//! objects attached to context ... are released").

use std::collections::BTreeMap;
use std::ffi::c_void;
use std::ops::Deref;
use std::sync::atomic::{AtomicU32, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};

use crate::consts::*;
use crate::dispatch::DISPATCH;

/// The kind of an object, stored beside it in the registry.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
#[repr(u32)]
pub enum Kind {
    Platform = 1,
    Device,
    Context,
    Queue,
    Mem,
    Program,
    Kernel,
    Event,
    Sampler,
}

/// A type a handle refers to.
pub trait ClObject: Send + Sync + 'static {
    const KIND: Kind;
    /// The error for a handle that is not a valid object of this type (`CL_INVALID_CONTEXT`, …).
    const INVALID: i32;
}

/// The object behind a handle.
#[repr(C)]
pub struct Obj<T> {
    dispatch: *const c_void,
    api_refs: AtomicU32,
    pub inner: T,
}

// SAFETY: `dispatch` points to an immutable static table.
unsafe impl<T: Send> Send for Obj<T> {}
unsafe impl<T: Sync> Sync for Obj<T> {}

impl<T> Deref for Obj<T> {
    type Target = T;
    fn deref(&self) -> &T {
        &self.inner
    }
}

impl<T> Drop for Obj<T> {
    fn drop(&mut self) {
        registry().remove(&(self as *const Obj<T> as usize));
    }
}

static REGISTRY: Mutex<BTreeMap<usize, Kind>> = Mutex::new(BTreeMap::new());

fn registry() -> MutexGuard<'static, BTreeMap<usize, Kind>> {
    REGISTRY
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner())
}

impl<T: ClObject> Obj<T> {
    /// A new object with an API reference count of 1; the handle owns one `Arc` count until
    /// the API count drops to 0.
    pub fn create(inner: T) -> Arc<Obj<T>> {
        let obj = Arc::new(Obj {
            dispatch: &DISPATCH as *const _ as *const c_void,
            api_refs: AtomicU32::new(1),
            inner,
        });
        registry().insert(Arc::as_ptr(&obj) as usize, T::KIND);
        obj
    }

    /// Hands out the handle: the API's reference.
    pub fn into_handle(obj: Arc<Obj<T>>) -> *mut c_void {
        Arc::into_raw(obj) as *mut c_void
    }

    /// The handle of an object (without a new reference).
    pub fn handle(obj: &Arc<Obj<T>>) -> *mut c_void {
        Arc::as_ptr(obj) as *mut c_void
    }

    /// The object of `handle`, or `T::INVALID` when it is not a live object of this type.
    pub fn get(handle: *mut c_void) -> Result<Arc<Obj<T>>, i32> {
        let registry = registry();
        if handle.is_null() || registry.get(&(handle as usize)) != Some(&T::KIND) {
            return Err(T::INVALID);
        }
        // SAFETY: the registry lists only live `Arc<Obj<T>>` data pointers of this kind.
        unsafe {
            Arc::increment_strong_count(handle as *const Obj<T>);
            Ok(Arc::from_raw(handle as *const Obj<T>))
        }
    }

    /// `clRetain*`.
    pub fn retain(handle: *mut c_void) -> i32 {
        crate::entry::guard(|| match Obj::<T>::retain_inner(handle) {
            CL_SUCCESS => Ok(()),
            e => Err(e),
        })
    }

    fn retain_inner(handle: *mut c_void) -> i32 {
        match Obj::<T>::get(handle) {
            Ok(obj) => {
                obj.api_refs.fetch_add(1, Ordering::SeqCst);
                // The API reference is one more `Arc` count, owned by the handle.
                std::mem::forget(obj);
                CL_SUCCESS
            }
            Err(e) => e,
        }
    }

    /// `clRelease*`: drops one API reference; at 0 the handle's `Arc` goes, and the object with
    /// it once nothing else refers to it.
    pub fn release(handle: *mut c_void) -> i32 {
        // Dropping the object runs destructor callbacks and frees runtime objects: no panic
        // may escape from there either.
        crate::entry::guard(|| match Obj::<T>::release_inner(handle) {
            CL_SUCCESS => Ok(()),
            e => Err(e),
        })
    }

    fn release_inner(handle: *mut c_void) -> i32 {
        let obj = match Obj::<T>::get(handle) {
            Ok(obj) => obj,
            Err(e) => return e,
        };
        let previous = obj
            .api_refs
            .fetch_update(Ordering::SeqCst, Ordering::SeqCst, |n| n.checked_sub(1));
        match previous {
            Ok(_) => {
                // SAFETY: each API reference owns one `Arc` count (from `into_handle`/`retain`).
                unsafe { Arc::decrement_strong_count(handle as *const Obj<T>) };
                CL_SUCCESS
            }
            // Released more often than retained.
            Err(_) => T::INVALID,
        }
    }

    /// Adds an API reference to an object the application still holds (API count > 0) and
    /// hands out its handle; None once the application released it.
    pub fn retain_held(obj: &Arc<Obj<T>>) -> Option<*mut c_void> {
        obj.api_refs
            .fetch_update(Ordering::SeqCst, Ordering::SeqCst, |n| {
                (n > 0).then_some(n + 1)
            })
            .ok()?;
        // The new API reference owns one more `Arc` count, as in `retain`.
        Some(Obj::into_handle(Arc::clone(obj)))
    }

    /// `CL_*_REFERENCE_COUNT`.
    pub fn ref_count(&self) -> u32 {
        self.api_refs.load(Ordering::SeqCst)
    }
}

/// The objects of a list of handles (`num` entries at `list`), each checked.
///
/// # Safety
/// `list` must point to `num` handles when it is not null.
pub unsafe fn get_list<T: ClObject>(
    list: *const *mut c_void,
    num: u32,
) -> Result<Vec<Arc<Obj<T>>>, i32> {
    if list.is_null() || num == 0 {
        return Ok(Vec::new());
    }
    // SAFETY: the caller's promise.
    let handles = unsafe { std::slice::from_raw_parts(list, num as usize) };
    handles.iter().map(|&h| Obj::<T>::get(h)).collect()
}
