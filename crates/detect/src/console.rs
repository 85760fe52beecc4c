//! Where a detection run prints: its result lines and notes go to the front that called it
//! (the command line, the Python binding), which decides where they appear.

/// The printing a detection run does.
pub trait Console {
    /// A result line or block (the command line's standard output); `text` ends with a newline.
    fn say(&mut self, text: &str);
    /// A note on the input that does not stop the run (standard error, `pathpool: note: ...`).
    fn note(&mut self, text: &str);
}

/// The process's standard output and error, as the command line prints.
pub struct Terminal;

impl Console for Terminal {
    fn say(&mut self, text: &str) {
        // A reader that stops early (`| head -1`) closes stdout: everything is in the files by
        // then, so a refused write ends the output quietly (print! would panic on it).
        let _ = std::io::Write::write_all(&mut std::io::stdout().lock(), text.as_bytes());
    }
    fn note(&mut self, text: &str) {
        eprintln!("pathpool: note: {text}");
    }
}
