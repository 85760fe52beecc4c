//! Reading a text input the user names (a scenario file, a truth file) with a size bound: a
//! character device such as /dev/zero, or an endless stream, would otherwise be read until
//! memory runs out. A regular file or a pipe is read once; a device or a folder is refused.

use std::io::Read as _;
use std::path::Path;

/// The largest scenario or truth file read (16 MiB; the largest the project generates is a
/// few hundred kB).
pub const TEXT_LIMIT: u64 = 16 << 20;

/// The whole text of `path`, at most `limit` bytes; the error says why not, without the
/// path (the caller names the file and what it is).
pub fn read_bounded(path: &Path, limit: u64) -> Result<String, String> {
    use std::os::unix::fs::FileTypeExt as _;
    let meta = std::fs::metadata(path).map_err(|e| e.to_string())?;
    let kind = meta.file_type();
    if kind.is_dir() {
        return Err("it is a folder, not a file".into());
    }
    if kind.is_char_device() || kind.is_block_device() || kind.is_socket() {
        return Err("it is a device or socket, not a file (expected a regular file or a pipe)".into());
    }
    let file = std::fs::File::open(path).map_err(|e| e.to_string())?;
    let mut bytes = Vec::new();
    file.take(limit + 1).read_to_end(&mut bytes).map_err(|e| e.to_string())?;
    if bytes.len() as u64 > limit {
        return Err(format!("it holds more than {limit} bytes, the most read"));
    }
    String::from_utf8(bytes).map_err(|e| format!("it is not UTF-8 text (byte {})", e.utf8_error().valid_up_to()))
}

/// Tables a scenario file may declare: one per link and flow template (each at most 100 000,
/// `limits.rs`) and a few more. The TOML parser takes about 60 times a file's size in
/// memory, most of it per table, so a file of millions of tables is refused before parsing.
pub const MAX_TABLES: usize = 300_000;

/// Counts the table headers (`[x]`, `[[x]]` at the start of a line) and inline tables (`{`)
/// of `text` cheaply, before it is parsed; an upper estimate (a `{` inside a string counts).
pub fn count_tables(text: &str) -> Result<usize, String> {
    let headers = text.lines().filter(|l| l.trim_start().starts_with('[')).count();
    let inline = text.bytes().filter(|&b| b == b'{').count();
    let n = headers + inline;
    if n > MAX_TABLES {
        return Err(format!(
            "{n} tables ({headers} table headers and {inline} inline tables in {} bytes); at most {MAX_TABLES}: a scenario declares one table per link and flow template (use `count` for copies)",
            text.len()
        ));
    }
    Ok(n)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn devices_folders_and_oversized_files_are_refused_and_text_is_read() {
        assert!(read_bounded(Path::new("/dev/zero"), 100).unwrap_err().contains("device"));
        assert!(read_bounded(Path::new("/"), 100).unwrap_err().contains("folder"));
        let dir = std::env::temp_dir().join(format!("pathpool-bounded-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let f = dir.join("t.toml");
        std::fs::write(&f, "x".repeat(101)).unwrap();
        assert!(read_bounded(&f, 100).unwrap_err().contains("more than 100 bytes"));
        assert_eq!(read_bounded(&f, 101).unwrap().len(), 101);
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn a_file_of_more_tables_than_a_scenario_declares_is_refused_before_parsing() {
        let many = "[a]\n".repeat(MAX_TABLES + 1);
        assert!(count_tables(&many).unwrap_err().contains("at most 300000"));
        let inline = "x = {}\n".repeat(MAX_TABLES + 1);
        assert!(count_tables(&inline).unwrap_err().contains("inline tables"));
        assert_eq!(count_tables("[simulation]\nduration = \"1s\"\n[links.a]\nrate = \"1Mbps\"\n").unwrap(), 2);
    }
}
