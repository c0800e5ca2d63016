//! A spinner on standard error while proof files are checked (`check`, `render`): the steps
//! checked so far and the time. Hidden when standard error is not a terminal (scripts, CI).

use hexproof::check::STEPS_CHECKED;
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::thread::JoinHandle;
use std::time::Duration;

/// The spinner; it stops and clears itself when dropped.
pub struct Steps {
    bar: ProgressBar,
    stop: Arc<AtomicBool>,
    thread: Option<JoinHandle<()>>,
}

impl Steps {
    /// Starts a spinner headed `what` (e.g. `checking corner.hexp`).
    pub fn start(what: &str) -> Steps {
        let bar = ProgressBar::with_draw_target(None, ProgressDrawTarget::stderr());
        let stop = Arc::new(AtomicBool::new(false));
        if bar.is_hidden() {
            return Steps {
                bar,
                stop,
                thread: None,
            };
        }
        bar.set_style(
            ProgressStyle::with_template("{spinner} {prefix}: {msg} [{elapsed}]")
                .expect("a valid template"),
        );
        bar.set_prefix(what.to_string());
        bar.enable_steady_tick(Duration::from_millis(120));
        let (b, s) = (bar.clone(), stop.clone());
        let first = STEPS_CHECKED.load(Ordering::Relaxed);
        let thread = std::thread::spawn(move || {
            while !s.load(Ordering::Relaxed) {
                let n = STEPS_CHECKED.load(Ordering::Relaxed) - first;
                b.set_message(format!("{n} step(s) checked"));
                std::thread::sleep(Duration::from_millis(100));
            }
        });
        Steps {
            bar,
            stop,
            thread: Some(thread),
        }
    }
}

impl Drop for Steps {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::Relaxed);
        if let Some(t) = self.thread.take() {
            let _ = t.join();
        }
        self.bar.finish_and_clear();
    }
}
