//! Enhance: the Enhance panel, which builds voxel detail (subdivision or resampling) off the UI
//! thread and previews it in the viewport.

pub mod enhance_panel;

pub use enhance_panel::EnhancePanel;
