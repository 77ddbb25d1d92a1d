//! Scripts: the Scripts panel, which runs a Luau terrain script (see `docs/scripting.md`) on a copy
//! of the document off the UI thread and installs a finished run as one undo step.

pub mod scripts_panel;

pub use scripts_panel::ScriptsPanel;
