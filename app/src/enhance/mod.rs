//! Enhance: the Enhance panel, which builds voxel detail (subdivision or resampling) off the UI
//! thread and previews it in the viewport ([`enhance_scope`]: near the view by default, the whole
//! world after its cost is shown).

pub mod enhance_panel;
pub mod enhance_scope;

pub use enhance_panel::EnhancePanel;
