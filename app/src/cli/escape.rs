//! Text from files (world and material names, step names, file names) printed on a terminal with its
//! control characters escaped, so a crafted file cannot send escape sequences to the user's terminal.

use std::path::Path;

/// `text` with every control character (C0, DEL, C1) written as a Rust-style escape (`\u{1b}`, `\n`).
pub fn text(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        if c.is_control() {
            out.extend(c.escape_default());
        } else {
            out.push(c);
        }
    }
    out
}

/// A path for a message, lossily decoded and escaped as [`text`].
pub fn display(path: &Path) -> String {
    text(&path.to_string_lossy())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn control_characters_are_escaped() {
        assert_eq!(text("w\u{1b}[2Jorld\n"), "w\\u{1b}[2Jorld\\n");
        assert_eq!(text("Fels \u{9b}31m"), "Fels \\u{9b}31m");
        assert_eq!(text("plain é"), "plain é");
        assert_eq!(display(Path::new("a\u{7}b")), "a\\u{7}b");
    }
}
