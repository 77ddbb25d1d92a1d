//! Lighting: the Lighting panel, which bakes the snowflake light off the UI thread and keeps it
//! fresh after edits.

pub mod lighting_panel;

pub use lighting_panel::LightingPanel;
