//! The Anti-aliasing preference: on by default, and a file written before it existed still loads
//! (with it on), so old preference files keep working.

use strata::app::prefs::Prefs;

#[test]
fn antialiasing_defaults_on_and_old_files_load() {
    assert!(Prefs::default().antialiasing);
    let dir = std::env::temp_dir().join(format!("strata-prefs-aa-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("temp dir");
    std::fs::write(dir.join("prefs.ron"), "(autosave_minutes: 7)").expect("writes");
    let p = Prefs::load(Some(&dir));
    assert_eq!(p.autosave_minutes, 7);
    assert!(p.antialiasing);
    let off = Prefs {
        antialiasing: false,
        ..Prefs::default()
    };
    off.save(&dir).expect("saves");
    assert!(!Prefs::load(Some(&dir)).antialiasing);
    let _ = std::fs::remove_dir_all(&dir);
}
