//! House rules that a compiler does not check, read from the source: top-level engine modules form
//! no import cycle (codecs below history and formats, helpers below their users), no two FILES of
//! the engine or the app import each other (directly or around a loop; see [`file_graph`]), and no
//! module is hidden from its parent's list by a `#[path]` attribute.

mod file_graph;

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// Every `.rs` file under `dir`, sorted (build output in `target/` skipped).
fn rust_files(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for entry in std::fs::read_dir(&d).expect("read dir") {
            let path = entry.expect("entry").path();
            if path.is_dir() {
                if path.file_name().is_some_and(|n| n != "target") {
                    stack.push(path);
                }
            } else if path.extension().is_some_and(|e| e == "rs") {
                out.push(path);
            }
        }
    }
    out.sort();
    out
}

fn workspace() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("workspace root")
        .to_path_buf()
}

/// The non-test code of a source file: comments dropped, and everything from the first
/// `#[cfg(test)]` on (unit tests sit at the bottom of each file).
fn shipped_code(text: &str) -> String {
    let end = text.find("#[cfg(test)]").unwrap_or(text.len());
    text[..end]
        .lines()
        .filter(|l| !l.trim_start().starts_with("//"))
        .collect::<Vec<_>>()
        .join("\n")
}

/// Top-level engine module → the top-level modules its shipped code names as `crate::NAME`.
fn engine_imports() -> BTreeMap<String, BTreeSet<String>> {
    let src = workspace().join("engine/src");
    let top: BTreeSet<String> = rust_files(&src)
        .iter()
        .filter_map(|p| {
            let rel = p.strip_prefix(&src).ok()?;
            let first = rel.components().next()?.as_os_str().to_str()?;
            Some(first.trim_end_matches(".rs").to_owned())
        })
        .filter(|m| m != "lib")
        .collect();
    let mut graph: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for path in rust_files(&src) {
        let rel = path.strip_prefix(&src).expect("under src");
        let name = rel.to_string_lossy();
        let module = name.split('/').next().unwrap_or("").trim_end_matches(".rs");
        let file = rel.file_name().and_then(|f| f.to_str()).unwrap_or("");
        if module == "lib" || file.contains("tests") || file.starts_with("test_") {
            continue;
        }
        let code = shipped_code(&std::fs::read_to_string(&path).expect("read"));
        let deps = graph.entry(module.to_owned()).or_default();
        for (i, _) in code.match_indices("crate::") {
            let rest = &code[i + "crate::".len()..];
            let word: String = rest
                .chars()
                .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
                .collect();
            let word = match word.as_str() {
                "Error" | "Result" => "error".to_owned(),
                _ => word,
            };
            if word != module && top.contains(&word) {
                deps.insert(word);
            }
        }
        // `use crate::{a::X, b::Y}` lists.
        for (i, _) in code.match_indices("crate::{") {
            let list = &code[i + "crate::{".len()..];
            let list = &list[..list.find('}').unwrap_or(list.len())];
            for item in list.split(',') {
                let word: String = item
                    .trim()
                    .chars()
                    .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
                    .collect();
                let word = match word.as_str() {
                    "Error" | "Result" => "error".to_owned(),
                    _ => word,
                };
                if word != module && top.contains(&word) {
                    deps.insert(word);
                }
            }
        }
    }
    graph
}

/// A cycle in `graph`, as the modules along it, if there is one.
fn find_cycle(graph: &BTreeMap<String, BTreeSet<String>>) -> Option<Vec<String>> {
    fn visit(
        node: &str,
        graph: &BTreeMap<String, BTreeSet<String>>,
        path: &mut Vec<String>,
        done: &mut BTreeSet<String>,
    ) -> Option<Vec<String>> {
        if let Some(at) = path.iter().position(|n| n == node) {
            let mut cycle = path[at..].to_vec();
            cycle.push(node.to_owned());
            return Some(cycle);
        }
        if done.contains(node) {
            return None;
        }
        path.push(node.to_owned());
        for next in graph.get(node).into_iter().flatten() {
            if let Some(c) = visit(next, graph, path, done) {
                return Some(c);
            }
        }
        path.pop();
        done.insert(node.to_owned());
        None
    }
    let mut done = BTreeSet::new();
    graph
        .keys()
        .find_map(|n| visit(n, graph, &mut Vec::new(), &mut done))
}

#[test]
fn cycle_finder_finds_cycles() {
    let g = |edges: &[(&str, &str)]| {
        let mut m: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
        for (a, b) in edges {
            m.entry((*a).to_owned())
                .or_default()
                .insert((*b).to_owned());
        }
        m
    };
    assert_eq!(
        find_cycle(&g(&[("format", "history"), ("history", "format")])),
        Some(vec!["format".into(), "history".into(), "format".into()])
    );
    assert_eq!(
        find_cycle(&g(&[("a", "b"), ("b", "c"), ("c", "a")])).map(|c| c.len()),
        Some(4)
    );
    assert_eq!(
        find_cycle(&g(&[("format", "codec"), ("history", "codec")])),
        None
    );
}

#[test]
fn engine_modules_form_no_import_cycle() {
    let graph = engine_imports();
    // The layering the codec move set up, checked explicitly.
    assert!(graph["format"].contains("codec") && graph["history"].contains("codec"));
    assert!(
        !graph["history"].contains("format"),
        "history must not import format"
    );
    assert!(graph["codec"].iter().all(|m| m == "error" || m == "voxel"));
    assert!(graph["vec3"].is_empty(), "vec3 is a leaf");
    if let Some(cycle) = find_cycle(&graph) {
        panic!("engine modules import each other: {}", cycle.join(" -> "));
    }
}

/// The engine's modules in the order `engine/src/lib.rs` lists them (its `//! - [`name`]` lines).
fn engine_module_list() -> Vec<String> {
    let lib = std::fs::read_to_string(workspace().join("engine/src/lib.rs")).expect("read lib.rs");
    lib.lines()
        .filter_map(|l| l.strip_prefix("//! - [`"))
        .filter_map(|l| l.split('`').next())
        .map(str::to_owned)
        .collect()
}

#[test]
fn engine_modules_import_only_modules_above_them_in_the_crate_docs() {
    let graph = engine_imports();
    let list = engine_module_list();
    for module in graph.keys() {
        assert!(list.contains(module), "lib.rs does not list `{module}`");
    }
    for (at, module) in list.iter().enumerate() {
        for dep in graph.get(module).into_iter().flatten() {
            let dep_at = list.iter().position(|m| m == dep);
            assert!(
                dep_at.is_some_and(|d| d < at),
                "`{module}` imports `{dep}`, which lib.rs lists below it"
            );
        }
    }
}

#[test]
fn no_path_attributes() {
    let root = workspace();
    let mut found = Vec::new();
    for dir in ["engine", "app", "tests", "fuzz"] {
        let dir = root.join(dir);
        for path in rust_files(&dir) {
            let text = std::fs::read_to_string(&path).expect("read");
            if text.lines().any(|l| l.trim_start().starts_with("#[path")) {
                found.push(path.display().to_string());
            }
        }
    }
    assert!(found.is_empty(), "#[path] includes: {found:?}");
}

/// The sources of the crate whose `src/` is `dir` (relative to the workspace), keyed by their path
/// under `src/`.
fn crate_sources(dir: &str) -> file_graph::Sources {
    let src = workspace().join(dir);
    rust_files(&src)
        .into_iter()
        .map(|p| {
            let rel = p.strip_prefix(&src).expect("under src");
            let key = rel
                .components()
                .map(|c| c.as_os_str().to_string_lossy().into_owned())
                .collect::<Vec<_>>()
                .join("/");
            (key, std::fs::read_to_string(&p).expect("read"))
        })
        .collect()
}

/// A small crate as the file graph sees it.
fn sources(files: &[(&str, &str)]) -> file_graph::Sources {
    files
        .iter()
        .map(|(k, v)| ((*k).to_owned(), (*v).to_owned()))
        .collect()
}

#[test]
fn file_graph_reads_every_kind_of_import() {
    let crate_files = sources(&[
        ("lib.rs", "pub mod a;\npub mod b;\nmod c;\npub use c::Leaf;\n"),
        // `mod` children, a `super::` group and a path through a re-export.
        (
            "a/mod.rs",
            "mod x;\npub use x::X;\n// use crate::b::B; a comment\nfn f() { let s = \"crate::b\"; }\n",
        ),
        ("a/x.rs", "use super::super::{c::Leaf, b};\npub struct X;\n"),
        ("b.rs", "pub fn g() -> crate::a::X { crate::a::X }\n#[cfg(test)]\nmod tests { use crate::c::Leaf; }\n"),
        ("c.rs", "pub struct Leaf;\n"),
    ]);
    let graph = file_graph::file_graph(&crate_files);
    let deps = |f: &str| graph[f].keys().cloned().collect::<Vec<_>>();
    assert_eq!(deps("lib.rs"), ["a/mod.rs", "b.rs", "c.rs"]);
    assert_eq!(
        deps("a/mod.rs"),
        ["a/x.rs"],
        "comments and strings are not imports"
    );
    assert_eq!(deps("a/x.rs"), ["b.rs", "c.rs"]);
    // `crate::a::X` is defined in a/x.rs and re-exported by a/mod.rs: the arrow goes to its file.
    assert_eq!(deps("b.rs"), ["a/x.rs"], "the test module does not count");
    assert_eq!(
        file_graph::cycles(&graph),
        vec![vec!["a/x.rs".to_owned(), "b.rs".to_owned()]]
    );
}

#[test]
fn file_graph_sees_a_child_that_uses_its_parent() {
    let crate_files = sources(&[
        ("lib.rs", "mod p;\n"),
        ("p/mod.rs", "mod q;\npub struct Shared;\n"),
        ("p/q.rs", "use super::Shared;\n"),
    ]);
    let graph = file_graph::file_graph(&crate_files);
    assert_eq!(
        file_graph::cycles(&graph),
        vec![vec!["p/mod.rs".to_owned(), "p/q.rs".to_owned()]]
    );
}

/// Every group of files that import each other around a loop, in the engine, the script crate and
/// the app: the group and its arrows inside the group, described.
fn workspace_file_cycles() -> Vec<String> {
    let mut out = Vec::new();
    for dir in ["engine/src", "script/src", "app/src"] {
        let graph = file_graph::file_graph(&crate_sources(dir));
        for group in file_graph::cycles(&graph) {
            let mut text = format!("{dir}: {}", group.join(", "));
            for from in &group {
                for (to, names) in &graph[from] {
                    if group.contains(to) {
                        let names: Vec<&str> = names.iter().map(String::as_str).collect();
                        text += &format!("\n    {from} -> {to}: {}", names.join(", "));
                    }
                }
            }
            out.push(text);
        }
    }
    out
}

#[test]
fn no_import_cycle_between_files() {
    let found = workspace_file_cycles();
    assert!(
        found.is_empty(),
        "{} groups of files import each other:\n{}",
        found.len(),
        found.join("\n")
    );
}
