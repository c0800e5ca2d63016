//! Makes a stack overflow a crash that libFuzzer records. With libFuzzer's `main`, Rust's
//! own guard-page handler is never installed, and libFuzzer's SIGSEGV handler runs on the
//! overflowed stack, so the process dies with no crash input written. This installs an
//! alternate signal stack and a SIGSEGV handler on it (libFuzzer keeps it as the upstream
//! handler and calls it), which reports and aborts: the SIGABRT handler then writes the input.

use std::sync::Once;

extern "C" fn on_segv(_: libc::c_int, _: *mut libc::siginfo_t, _: *mut libc::c_void) {
    const MSG: &[u8] = b"\n==fuzz== SIGSEGV (most likely a stack overflow: the input is run on the main thread's stack)\n";
    unsafe {
        libc::write(2, MSG.as_ptr().cast(), MSG.len());
        libc::abort();
    }
}

/// Call from the target's `init`; before libFuzzer installs its handlers.
pub fn catch_stack_overflow() {
    static ONCE: Once = Once::new();
    ONCE.call_once(|| unsafe {
        const SIZE: usize = 1 << 20;
        let mem = Box::leak(vec![0u8; SIZE].into_boxed_slice());
        let ss = libc::stack_t {
            ss_sp: mem.as_mut_ptr().cast(),
            ss_flags: 0,
            ss_size: SIZE,
        };
        libc::sigaltstack(&ss, std::ptr::null_mut());
        let mut sa: libc::sigaction = std::mem::zeroed();
        sa.sa_sigaction = on_segv as *const () as usize;
        sa.sa_flags = libc::SA_SIGINFO | libc::SA_ONSTACK;
        libc::sigemptyset(&mut sa.sa_mask);
        libc::sigaction(libc::SIGSEGV, &sa, std::ptr::null_mut());
    });
}
