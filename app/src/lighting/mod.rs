//! Lighting: the Lighting panel, which bakes the snowflake light off the UI thread and keeps it
//! fresh after edits, its bake options, the viewport's exposure and tone curve, and the list of the
//! project's point and spot lights.

mod bake_options;
mod exposure_widgets;
pub mod light_drag;
pub mod light_gizmo;
pub mod light_icons;
pub mod lighting_panel;
pub mod lights_list;
mod sky_widgets;

pub use lighting_panel::LightingPanel;
