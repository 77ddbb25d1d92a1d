//! The import graph between source FILES of one crate, read from its text: which file names which.
//!
//! The layering test uses it to forbid cycles between files anywhere in the workspace. A file imports
//! another when its shipped code (comments, string contents and `#[cfg(test)]` items left out) names
//! an item of the other through a `use` (`pub use` re-exports included), a `crate::`, `super::` or
//! `self::` path, a path that starts at one of its child modules, or declares it with `mod name;`.
//! A name that a module re-exports (`pub use rows::Run` in `region/mod.rs`) leads to the file that
//! defines it, not to the re-exporting file: the re-export line is its own arrow.
//!
//! It is a reader of text, not a compiler: it knows enough Rust for this workspace (modules are files,
//! no `#[path]`, no macros that declare modules).

use std::collections::{BTreeMap, BTreeSet};

/// A module path from the crate root (`[]` is the root; `["region", "rows"]` is `region/rows.rs`).
pub type ModPath = Vec<String>;

/// Source files of one crate, keyed by their path relative to the crate's `src/` (`region/rows.rs`).
pub type Sources = BTreeMap<String, String>;

/// File → each file it imports (paths relative to `src/`) → the paths that import it, as written
/// (`mod x` for a module declaration).
pub type FileGraph = BTreeMap<String, BTreeMap<String, BTreeSet<String>>>;

/// The module path of a file relative to `src/`: `lib.rs` → `[]`, `a/mod.rs` and `a.rs` → `[a]`.
fn module_of(file: &str) -> ModPath {
    let mut parts: Vec<String> = file
        .trim_end_matches(".rs")
        .split('/')
        .map(str::to_owned)
        .collect();
    if parts.last().is_some_and(|l| l == "mod" || l == "lib") {
        parts.pop();
    }
    parts
}

/// `text` with comments removed and the contents of string and character literals blanked, so that
/// neither can look like a path.
pub fn strip_comments_and_strings(text: &str) -> String {
    let c: Vec<char> = text.chars().collect();
    let mut out = String::with_capacity(text.len());
    let mut i = 0;
    while i < c.len() {
        let next = c.get(i + 1).copied();
        if c[i] == '/' && next == Some('/') {
            while i < c.len() && c[i] != '\n' {
                i += 1;
            }
        } else if c[i] == '/' && next == Some('*') {
            let mut depth = 0;
            while i < c.len() {
                if c[i] == '/' && c.get(i + 1) == Some(&'*') {
                    depth += 1;
                    i += 2;
                } else if c[i] == '*' && c.get(i + 1) == Some(&'/') {
                    depth -= 1;
                    i += 2;
                    if depth == 0 {
                        break;
                    }
                } else {
                    i += 1;
                }
            }
            out.push(' ');
        } else if c[i] == 'r'
            && (next == Some('"') || next == Some('#'))
            && (i == 0 || !is_ident(c[i - 1]))
        {
            // A raw string: r"..." or r#"..."#.
            let mut j = i + 1;
            let mut hashes = 0;
            while j < c.len() && c[j] == '#' {
                hashes += 1;
                j += 1;
            }
            if c.get(j) != Some(&'"') {
                out.push(c[i]);
                i += 1;
                continue;
            }
            j += 1;
            while j < c.len() {
                if c[j] == '"' && (0..hashes).all(|h| c.get(j + 1 + h) == Some(&'#')) {
                    j += 1 + hashes;
                    break;
                }
                j += 1;
            }
            out.push_str("\"\"");
            i = j;
        } else if c[i] == '"' {
            i += 1;
            while i < c.len() && c[i] != '"' {
                i += if c[i] == '\\' { 2 } else { 1 };
            }
            i += 1;
            out.push_str("\"\"");
        } else if c[i] == '\'' {
            // A character literal ('a', '\n', '\u{..}') or a lifetime ('a).
            if next == Some('\\') {
                let mut j = i + 2;
                while j < c.len() && c[j] != '\'' {
                    j += 1;
                }
                out.push_str("' '");
                i = j + 1;
            } else if c.get(i + 2) == Some(&'\'') {
                out.push_str("' '");
                i += 3;
            } else {
                out.push('\'');
                i += 1;
            }
        } else {
            out.push(c[i]);
            i += 1;
        }
    }
    out
}

fn is_ident(c: char) -> bool {
    c.is_ascii_alphanumeric() || c == '_'
}

/// `code` (comments already stripped) without the items marked `#[cfg(test)]` (or
/// `#[cfg(all(test, ...))]`): a test module, a test-only function or import.
pub fn without_test_items(code: &str) -> String {
    let mut out = String::with_capacity(code.len());
    let mut rest = code;
    loop {
        let at = ["#[cfg(test)]", "#[cfg(all(test"]
            .iter()
            .filter_map(|m| rest.find(m))
            .min();
        let Some(at) = at else {
            out.push_str(rest);
            return out;
        };
        out.push_str(&rest[..at]);
        rest = skip_item(&rest[at..]);
    }
}

/// The text after the item that starts at `text` (its attributes first): the item ends at a `;` before
/// any brace, or at the brace that closes its first `{`.
fn skip_item(text: &str) -> &str {
    let b = text.as_bytes();
    let mut i = 0;
    // Attributes: `#[...]` with nested brackets.
    loop {
        while i < b.len() && b[i].is_ascii_whitespace() {
            i += 1;
        }
        if b.get(i) == Some(&b'#') && b.get(i + 1) == Some(&b'[') {
            let mut depth = 0;
            while i < b.len() {
                match b[i] {
                    b'[' => depth += 1,
                    b']' => {
                        depth -= 1;
                        if depth == 0 {
                            i += 1;
                            break;
                        }
                    }
                    _ => {}
                }
                i += 1;
            }
        } else {
            break;
        }
    }
    let mut depth = 0;
    while i < b.len() {
        match b[i] {
            b';' if depth == 0 => return &text[i + 1..],
            b'{' => depth += 1,
            b'}' => {
                depth -= 1;
                if depth == 0 {
                    return &text[i + 1..];
                }
            }
            _ => {}
        }
        i += 1;
    }
    ""
}

/// The shipped code of a file, as this reader sees it.
pub fn shipped(text: &str) -> String {
    without_test_items(&strip_comments_and_strings(text))
}

/// One `use` tree flattened: each leaf as (path segments, the name it binds). `self` in a group binds
/// the group's module; `*` binds nothing (its name is `*`).
fn flatten_use(tree: &str) -> Vec<(Vec<String>, String)> {
    fn walk(prefix: &[String], tree: &str, out: &mut Vec<(Vec<String>, String)>) {
        let tree = tree.trim();
        if tree.is_empty() {
            return;
        }
        // The part before a group, if the tree has one: `a::b::{...}`.
        if let Some(open) = tree.find('{') {
            let head = tree[..open].trim().trim_end_matches("::");
            let mut p = prefix.to_vec();
            p.extend(
                head.split("::")
                    .map(str::trim)
                    .filter(|s| !s.is_empty())
                    .map(str::to_owned),
            );
            let close = tree.rfind('}').unwrap_or(tree.len());
            let inner = &tree[open + 1..close];
            let mut depth = 0;
            let mut start = 0;
            for (i, ch) in inner.char_indices() {
                match ch {
                    '{' => depth += 1,
                    '}' => depth -= 1,
                    ',' if depth == 0 => {
                        walk(&p, &inner[start..i], out);
                        start = i + 1;
                    }
                    _ => {}
                }
            }
            walk(&p, &inner[start..], out);
            return;
        }
        let (path, alias) = match tree.split_once(" as ") {
            Some((p, a)) => (p.trim(), Some(a.trim().to_owned())),
            None => (tree, None),
        };
        let mut segs = prefix.to_vec();
        segs.extend(path.split("::").map(|s| s.trim().to_owned()));
        if segs.last().is_some_and(|l| l == "self") {
            segs.pop();
        }
        let name = alias.unwrap_or_else(|| segs.last().cloned().unwrap_or_default());
        out.push((segs, name));
    }
    let mut out = Vec::new();
    walk(&[], tree, &mut out);
    out
}

/// The `use` statements of `code`: each flattened tree.
fn use_statements(code: &str) -> Vec<(Vec<String>, String)> {
    let mut out = Vec::new();
    let mut i = 0;
    while let Some(at) = code[i..].find("use ") {
        let start = i + at;
        i = start + 4;
        let before = code[..start].chars().next_back();
        if before.is_some_and(is_ident) {
            continue;
        }
        // Only `use` at the start of an item: after `;`, `{`, `}`, `]`, a visibility or the start.
        let head = code[..start].trim_end();
        let ok = head.is_empty()
            || head.ends_with(';')
            || head.ends_with('{')
            || head.ends_with('}')
            || head.ends_with(']')
            || head.ends_with("pub")
            || head.ends_with(')');
        if !ok {
            continue;
        }
        let Some(end) = code[i..].find(';') else {
            break;
        };
        let tree: String = code[i..i + end]
            .chars()
            .filter(|c| !c.is_whitespace() || *c == ' ')
            .collect();
        let tree = tree.split_whitespace().collect::<Vec<_>>().join(" ");
        out.extend(flatten_use(&tree));
        i += end;
    }
    out
}

/// `mod name;` declarations (not inline modules) of `code`.
fn mod_declarations(code: &str) -> Vec<String> {
    let mut out = Vec::new();
    let tokens: Vec<&str> = code
        .split(|c: char| c.is_whitespace())
        .filter(|t| !t.is_empty())
        .collect();
    for w in tokens.windows(2) {
        if w[0] == "mod" {
            if let Some(name) = w[1].strip_suffix(';') {
                out.push(name.to_owned());
            }
        }
    }
    out
}

/// Paths in expressions and types that start with `crate::`, `super::` or `self::`, or with one of
/// `children` (the file's own child modules): their segments.
fn inline_paths(code: &str, children: &BTreeSet<String>) -> Vec<Vec<String>> {
    let chars: Vec<char> = code.chars().collect();
    let mut out = Vec::new();
    let mut i = 0;
    while i < chars.len() {
        if !is_ident(chars[i]) || (i > 0 && (is_ident(chars[i - 1]) || chars[i - 1] == ':')) {
            i += 1;
            continue;
        }
        // Read `ident(::ident)*`.
        let mut segs = Vec::new();
        let mut j = i;
        loop {
            let s = j;
            while j < chars.len() && is_ident(chars[j]) {
                j += 1;
            }
            segs.push(chars[s..j].iter().collect::<String>());
            if chars.get(j) == Some(&':')
                && chars.get(j + 1) == Some(&':')
                && chars.get(j + 2).is_some_and(|c| is_ident(*c))
            {
                j += 2;
            } else {
                break;
            }
        }
        let first = segs[0].as_str();
        // A use tree's prefix (`super::{a, b}`) is read with its `use` statement.
        let prefix_of_group = chars.get(j) == Some(&':')
            && chars.get(j + 1) == Some(&':')
            && matches!(chars.get(j + 2), Some('{' | '*'));
        if segs.len() > 1
            && !prefix_of_group
            && (first == "crate" || first == "super" || first == "self" || children.contains(first))
        {
            out.push(segs);
        }
        i = j.max(i + 1);
    }
    out
}

/// What the reader learned of one file.
struct FileFacts {
    module: ModPath,
    /// Child modules it declares.
    children: BTreeSet<String>,
    /// Each `use` leaf: absolute path, the name it binds and the path as written.
    uses: Vec<(ModPath, String, String)>,
    /// Other paths it names: absolute and as written.
    paths: Vec<(ModPath, String)>,
}

/// The absolute form of a path named inside `module` (`None` for a path into another crate).
fn absolute(module: &[String], segs: &[String], children: &BTreeSet<String>) -> Option<ModPath> {
    let first = segs.first()?;
    let (mut base, rest): (ModPath, &[String]) = match first.as_str() {
        "crate" => (Vec::new(), &segs[1..]),
        "self" => (module.to_vec(), &segs[1..]),
        "super" => {
            let mut m = module.to_vec();
            let mut k = 0;
            while segs.get(k).is_some_and(|s| s == "super") {
                m.pop();
                k += 1;
            }
            (m, &segs[k..])
        }
        name if children.contains(name) => (module.to_vec(), segs),
        _ => return None,
    };
    base.extend(rest.iter().cloned());
    Some(base)
}

/// The file import graph of one crate, from its sources (keys relative to `src/`; `lib.rs` is the
/// root). Only files reachable from the root through shipped `mod` declarations take part.
pub fn file_graph(sources: &Sources) -> FileGraph {
    let files: BTreeMap<ModPath, String> = sources
        .keys()
        .filter(|f| f.as_str() != "main.rs")
        .map(|f| (module_of(f), f.clone()))
        .collect();
    let mut facts: BTreeMap<String, FileFacts> = BTreeMap::new();
    let mut todo = vec![Vec::new()];
    while let Some(module) = todo.pop() {
        let Some(file) = files.get(&module) else {
            continue;
        };
        if facts.contains_key(file) {
            continue;
        }
        let code = shipped(&sources[file]);
        let children: BTreeSet<String> = mod_declarations(&code).into_iter().collect();
        let uses = use_statements(&code)
            .into_iter()
            .filter_map(|(segs, name)| {
                Some((absolute(&module, &segs, &children)?, name, segs.join("::")))
            })
            .collect();
        let paths = inline_paths(&code, &children)
            .into_iter()
            .filter_map(|segs| Some((absolute(&module, &segs, &children)?, segs.join("::"))))
            .collect();
        for c in &children {
            let mut m = module.clone();
            m.push(c.clone());
            todo.push(m);
        }
        facts.insert(
            file.clone(),
            FileFacts {
                module,
                children,
                uses,
                paths,
            },
        );
    }
    // The names each module binds with `use` (re-exports and private imports alike: child modules
    // see both through `super::`).
    let bound: BTreeMap<ModPath, BTreeMap<String, ModPath>> = facts
        .values()
        .map(|f| {
            let names = f
                .uses
                .iter()
                .filter(|(_, n, _)| n != "*")
                .map(|(p, n, _)| (n.clone(), p.clone()))
                .collect();
            (f.module.clone(), names)
        })
        .collect();
    // The file that defines what `path` names: the deepest module along it that has a file, then
    // through that module's imports while the next name is one of them.
    let resolve = |path: &ModPath| -> Option<String> {
        let mut path = path.clone();
        for _ in 0..16 {
            let mut depth = 0;
            while depth < path.len() && files.contains_key(&path[..=depth]) {
                depth += 1;
            }
            let module = path[..depth].to_vec();
            let file = files.get(&module)?;
            match path
                .get(depth)
                .and_then(|name| bound.get(&module).and_then(|b| b.get(name)))
            {
                Some(target) if *target != path => {
                    let mut next = target.clone();
                    next.extend(path[depth + 1..].iter().cloned());
                    path = next;
                }
                _ => return Some(file.clone()),
            }
        }
        None
    };
    let mut graph = FileGraph::new();
    for (file, f) in &facts {
        let deps = graph.entry(file.clone()).or_default();
        for c in &f.children {
            let mut m = f.module.clone();
            m.push(c.clone());
            if let Some(child) = files.get(&m) {
                deps.entry(child.clone())
                    .or_default()
                    .insert(format!("mod {c}"));
            }
        }
        let named = f
            .uses
            .iter()
            .map(|(p, _, w)| (p, w))
            .chain(f.paths.iter().map(|(p, w)| (p, w)));
        for (path, written) in named {
            if let Some(target) = resolve(path) {
                if target != *file {
                    deps.entry(target).or_default().insert(written.clone());
                }
            }
        }
    }
    graph
}

/// The strongly connected groups of more than one file: each a set of files that import each other
/// (directly or around a loop), sorted.
pub fn cycles(graph: &FileGraph) -> Vec<Vec<String>> {
    // Tarjan's algorithm, iterative enough for a few hundred files.
    struct State<'a> {
        graph: &'a FileGraph,
        index: BTreeMap<&'a str, usize>,
        low: BTreeMap<&'a str, usize>,
        stack: Vec<&'a str>,
        on_stack: BTreeSet<&'a str>,
        next: usize,
        out: Vec<Vec<String>>,
    }
    fn visit<'a>(s: &mut State<'a>, v: &'a str) {
        s.index.insert(v, s.next);
        s.low.insert(v, s.next);
        s.next += 1;
        s.stack.push(v);
        s.on_stack.insert(v);
        for w in s.graph.get(v).into_iter().flat_map(|d| d.keys()) {
            let w = w.as_str();
            if !s.index.contains_key(w) {
                visit(s, w);
                let lw = s.low[w];
                let lv = s.low.get_mut(v).expect("visited");
                *lv = (*lv).min(lw);
            } else if s.on_stack.contains(w) {
                let iw = s.index[w];
                let lv = s.low.get_mut(v).expect("visited");
                *lv = (*lv).min(iw);
            }
        }
        if s.low[v] == s.index[v] {
            let mut group = Vec::new();
            while let Some(w) = s.stack.pop() {
                s.on_stack.remove(w);
                group.push(w.to_owned());
                if w == v {
                    break;
                }
            }
            if group.len() > 1 {
                group.sort();
                s.out.push(group);
            }
        }
    }
    let mut s = State {
        graph,
        index: BTreeMap::new(),
        low: BTreeMap::new(),
        stack: Vec::new(),
        on_stack: BTreeSet::new(),
        next: 0,
        out: Vec::new(),
    };
    for v in graph.keys() {
        if !s.index.contains_key(v.as_str()) {
            visit(&mut s, v.as_str());
        }
    }
    s.out.sort();
    s.out
}
