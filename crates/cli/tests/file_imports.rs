//! No two source files of the workspace import each other in a loop (docs/architecture.md):
//! a file that takes names from a second which takes names from the first, directly or
//! around a longer ring, cannot be read, moved or tested alone. Each crate's `src` is read
//! as rustc would resolve its paths: `crate::`, `super::` and `self::` paths and paths
//! through a child module, each to the file that defines the name (through `pub use`
//! re-exports); a path that names a module is an import of that module's file. Re-exports
//! themselves (`pub use`), `mod` declarations and a module's file using the modules beneath
//! it are the crate's shape, not imports.

mod support;
use std::collections::{BTreeMap, BTreeSet};
use support::rust_files;
use std::path::{Path, PathBuf};

fn crates_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

/// The module path of a file under `src`: lib.rs and main.rs are the root, a/mod.rs is a.
fn module_of(rel: &Path) -> Vec<String> {
    let mut parts: Vec<String> = rel.with_extension("").iter().map(|p| p.to_string_lossy().into_owned()).collect();
    if matches!(parts.last().map(String::as_str), Some("mod")) || (parts.len() == 1 && matches!(parts[0].as_str(), "lib" | "main")) {
        parts.pop();
    }
    parts
}

/// The text without comments (line comments and doc comments: a path in prose imports
/// nothing).
fn code_of(text: &str) -> String {
    text.lines().map(|l| if let Some(i) = l.find("//") { &l[..i] } else { l }).collect::<Vec<_>>().join("\n")
}

fn is_ident(c: char) -> bool {
    c.is_ascii_alphanumeric() || c == '_'
}

/// The paths of a use tree starting at `s` (just after a `::`): `a::b`, `{a, b::c}`, `*`.
fn use_tree(s: &[char], mut i: usize, prefix: Vec<String>, out: &mut Vec<Vec<String>>) -> usize {
    while i < s.len() && s[i].is_whitespace() {
        i += 1;
    }
    if i < s.len() && s[i] == '{' {
        i += 1;
        loop {
            i = use_tree(s, i, prefix.clone(), out);
            while i < s.len() && s[i].is_whitespace() {
                i += 1;
            }
            match s.get(i) {
                Some(',') => i += 1,
                Some('}') => return i + 1,
                _ => return i,
            }
            while i < s.len() && s[i].is_whitespace() {
                i += 1;
            }
            if s.get(i) == Some(&'}') {
                return i + 1;
            }
        }
    }
    let start = i;
    while i < s.len() && is_ident(s[i]) {
        i += 1;
    }
    let mut path = prefix;
    if i > start {
        path.push(s[start..i].iter().collect());
    }
    if s.get(i) == Some(&':') && s.get(i + 1) == Some(&':') {
        return use_tree(s, i + 2, path, out);
    }
    if !path.is_empty() {
        out.push(path);
    }
    i
}

/// Every path in `code` that starts with `crate`, `super`, `self` or one of `children` (the
/// current module's child modules), with whether it stands in a `pub use` item.
fn paths_in(code: &str, children: &BTreeSet<String>) -> Vec<(Vec<String>, bool)> {
    let s: Vec<char> = code.chars().collect();
    let mut out = Vec::new();
    let mut i = 0;
    while i < s.len() {
        if !is_ident(s[i]) || (i > 0 && (is_ident(s[i - 1]) || s[i - 1] == ':' && i > 1 && s[i - 2] == ':')) {
            i += 1;
            continue;
        }
        let start = i;
        while i < s.len() && is_ident(s[i]) {
            i += 1;
        }
        let word: String = s[start..i].iter().collect();
        let path_follows = s.get(i) == Some(&':') && s.get(i + 1) == Some(&':');
        if !path_follows || !(matches!(word.as_str(), "crate" | "super" | "self") || children.contains(&word)) {
            continue;
        }
        // A `pub use` (of any visibility) re-exports; find the item's start.
        let line_start = s[..start].iter().rposition(|&c| c == ';' || c == '{' || c == '}').map_or(0, |p| p + 1);
        let before: String = s[line_start..start].iter().collect();
        let reexport = before.trim_start().starts_with("pub") && before.contains("use");
        let mut paths = Vec::new();
        i = use_tree(&s, i + 2, vec![word], &mut paths);
        out.extend(paths.into_iter().map(|p| (p, reexport)));
    }
    out
}

struct Crate {
    /// module path -> file
    modules: BTreeMap<Vec<String>, PathBuf>,
    /// file -> its module path, the names it defines, its re-exports (name -> path) and code
    files: BTreeMap<PathBuf, (Vec<String>, BTreeSet<String>, BTreeMap<String, Vec<String>>, String)>,
}

fn definitions(code: &str) -> BTreeSet<String> {
    let mut names = BTreeSet::new();
    let words: Vec<&str> = code.split(|c: char| !is_ident(c) && c != '!').filter(|w| !w.is_empty()).collect();
    for w in words.windows(2) {
        if matches!(w[0], "fn" | "struct" | "enum" | "trait" | "type" | "const" | "static" | "mod" | "union" | "macro_rules!") {
            names.insert(w[1].to_string());
        }
    }
    names
}

fn read_crate(src: &Path) -> Crate {
    let mut files = Vec::new();
    rust_files(src, &mut files);
    let mut modules = BTreeMap::new();
    let mut texts = BTreeMap::new();
    for f in files {
        let module = module_of(f.strip_prefix(src).unwrap());
        modules.insert(module.clone(), f.clone());
        let code = code_of(&std::fs::read_to_string(&f).unwrap());
        texts.insert(f, (module, code));
    }
    let mut out = Crate { modules, files: BTreeMap::new() };
    for (f, (module, code)) in texts {
        let children = children(&out.modules, &module);
        let mut reexports = BTreeMap::new();
        for (path, reexport) in paths_in(&code, &children) {
            if reexport {
                if let Some(absolute) = absolute(&module, &path) {
                    reexports.insert(path.last().unwrap().clone(), absolute);
                }
            }
        }
        out.files.insert(f, (module, definitions(&code), reexports, code));
    }
    out
}

fn children(modules: &BTreeMap<Vec<String>, PathBuf>, module: &[String]) -> BTreeSet<String> {
    modules.keys().filter(|m| m.len() == module.len() + 1 && m.starts_with(module)).map(|m| m.last().unwrap().clone()).collect()
}

/// `path` as seen from `module`, made absolute from the crate root.
fn absolute(module: &[String], path: &[String]) -> Option<Vec<String>> {
    // A mod.rs or lib.rs is its module; any other file's `super` is its parent.
    let mut base: Vec<String> = module.to_vec();
    let mut rest = path;
    match rest.first().map(String::as_str) {
        Some("crate") => {
            base.clear();
            rest = &rest[1..];
        }
        Some("self") => rest = &rest[1..],
        Some("super") => {
            while rest.first().map(String::as_str) == Some("super") {
                base.pop()?;
                rest = &rest[1..];
            }
        }
        _ => {}
    }
    base.extend(rest.iter().cloned());
    Some(base)
}

/// The file that defines what `path` (absolute) names, following re-exports.
fn target(c: &Crate, path: &[String], depth: usize) -> Option<PathBuf> {
    let p = (0..=path.len()).rev().find(|&n| c.modules.contains_key(&path[..n]))?;
    let file = &c.modules[&path[..p]];
    let Some(name) = path.get(p) else { return Some(file.clone()) };
    let (_, defined, reexports, _) = &c.files[file];
    if !defined.contains(name) && depth < 8 {
        if let Some(via) = reexports.get(name) {
            let mut whole = via.clone();
            whole.extend(path[p + 1..].iter().cloned());
            return target(c, &whole, depth + 1).or_else(|| Some(file.clone()));
        }
    }
    Some(file.clone())
}

/// Strongly connected components of more than one file (Tarjan).
fn rings(edges: &BTreeMap<PathBuf, BTreeSet<PathBuf>>) -> Vec<Vec<PathBuf>> {
    struct T<'a> {
        edges: &'a BTreeMap<PathBuf, BTreeSet<PathBuf>>,
        index: BTreeMap<&'a PathBuf, usize>,
        low: BTreeMap<&'a PathBuf, usize>,
        stack: Vec<&'a PathBuf>,
        on: BTreeSet<&'a PathBuf>,
        out: Vec<Vec<PathBuf>>,
    }
    fn visit<'a>(t: &mut T<'a>, v: &'a PathBuf) {
        let n = t.index.len();
        t.index.insert(v, n);
        t.low.insert(v, n);
        t.stack.push(v);
        t.on.insert(v);
        for w in t.edges.get(v).into_iter().flatten() {
            if !t.index.contains_key(w) {
                visit(t, w);
                let l = t.low[w].min(t.low[v]);
                t.low.insert(v, l);
            } else if t.on.contains(w) {
                let l = t.index[w].min(t.low[v]);
                t.low.insert(v, l);
            }
        }
        if t.low[v] == t.index[v] {
            let mut ring = Vec::new();
            while let Some(w) = t.stack.pop() {
                t.on.remove(w);
                ring.push(w.clone());
                if w == v {
                    break;
                }
            }
            if ring.len() > 1 {
                t.out.push(ring);
            }
        }
    }
    let mut t = T { edges, index: BTreeMap::new(), low: BTreeMap::new(), stack: Vec::new(), on: BTreeSet::new(), out: Vec::new() };
    for v in edges.keys() {
        if !t.index.contains_key(v) {
            visit(&mut t, v);
        }
    }
    t.out
}

/// Each file's imports within its crate.
fn imports(src: &Path) -> BTreeMap<PathBuf, BTreeSet<PathBuf>> {
    let c = read_crate(src);
    let mut edges: BTreeMap<PathBuf, BTreeSet<PathBuf>> = BTreeMap::new();
    for (file, (module, _, _, code)) in &c.files {
        let children = children(&c.modules, module);
        for (path, reexport) in paths_in(code, &children) {
            if reexport {
                continue;
            }
            if let Some(to) = absolute(module, &path).and_then(|p| target(&c, &p, 0)) {
                // A module's file over the modules beneath it (lib.rs, a/mod.rs or a.rs over
                // a/b.rs) is their root: every one of them hangs from it, so a use downwards
                // is the tree itself, not an import that can close a loop.
                let below = c.files[&to].0.len() > module.len() && c.files[&to].0.starts_with(module);
                if &to != file && !below {
                    edges.entry(file.clone()).or_default().insert(to);
                }
            }
        }
    }
    edges
}

#[test]
fn no_two_files_import_each_other_in_a_loop() {
    let root = crates_dir();
    let mut found = Vec::new();
    let mut files_read = 0;
    for krate in std::fs::read_dir(&root).unwrap().flatten().map(|e| e.path()).filter(|p| p.join("src").is_dir()) {
        let edges = imports(&krate.join("src"));
        files_read += edges.len();
        for ring in rings(&edges) {
            let name = |f: &PathBuf| f.strip_prefix(&root).unwrap().display().to_string();
            let members: BTreeSet<&PathBuf> = ring.iter().collect();
            let ties: Vec<String> = ring.iter().flat_map(|a| edges[a].iter().filter(|b| members.contains(b)).map(move |b| format!("{} -> {}", name(a), name(b)))).collect();
            found.push(ties.join("; "));
        }
    }
    assert!(files_read > 100, "read the imports of only {files_read} files");
    assert!(found.is_empty(), "files that import each other in a loop (move what both need into a file of its own):\n{}", found.join("\n"));
}

/// The reader finds a loop where there is one, through a re-export and through `super`.
#[test]
fn a_loop_through_a_reexport_and_super_is_found() {
    let src = std::env::temp_dir().join(format!("pathpool-file-imports-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&src);
    std::fs::create_dir_all(src.join("m")).unwrap();
    std::fs::write(src.join("lib.rs"), "mod m;\nmod c;\npub use m::b::Thing;\n").unwrap();
    std::fs::write(src.join("m/mod.rs"), "pub mod a;\npub mod b;\n").unwrap();
    std::fs::write(src.join("m/a.rs"), "use super::b::helper;\npub fn used() { helper() }\n").unwrap();
    std::fs::write(src.join("m/b.rs"), "pub struct Thing;\npub fn helper() {}\nfn x() { crate::c::go() }\n").unwrap();
    std::fs::write(src.join("c.rs"), "// crate::m::a::used is named here only in prose\npub fn go() { let _ = crate::Thing; crate::m::a::used() }\n").unwrap();
    let edges = imports(&src);
    let rings = rings(&edges);
    assert_eq!(rings.len(), 1, "{edges:#?}");
    let members: BTreeSet<String> = rings[0].iter().map(|f| f.strip_prefix(&src).unwrap().display().to_string()).collect();
    assert_eq!(members, ["c.rs", "m/a.rs", "m/b.rs"].into_iter().map(String::from).collect());
    let _ = std::fs::remove_dir_all(&src);
}
