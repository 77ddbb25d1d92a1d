//! Materials: the project's own material table, edited in the Materials window
//! ([`materials_panel`]), chosen in every panel through one picker ([`material_picker`]), and
//! carried in files (textures, palettes: [`material_files`]).
//!
//! ```text
//!   MaterialsPanel ──Action::Materials(MaterialEdit)──> EditorApp::apply
//!        │                                                   └─> Document::change_materials
//!        └─ material_fields (draft of one row)                   (one undo step; voxels follow,
//!   material_picker (Tools, Region fill, Replace, Remove prompt)   viewport, physics, bake stale)
//! ```

pub mod material_edit;
pub mod material_fields;
pub mod material_files;
pub mod material_picker;
pub mod materials_panel;
pub mod texture_thumbs;

pub use material_edit::MaterialEdit;
pub use materials_panel::{MaterialsPanel, NAME};
