//! Lighting: the Lighting panel, which bakes the snowflake light off the UI thread and keeps it
//! fresh after edits, its bake options and the list of the project's point and spot lights.

mod bake_options;
pub mod lighting_panel;
pub mod lights_list;
mod sky_widgets;

pub use lighting_panel::LightingPanel;
