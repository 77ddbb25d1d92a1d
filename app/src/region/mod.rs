//! Region tools: the Region tool (select a box; copy, cut, paste, delete, duplicate, rotate, mirror,
//! fill), its selection handles, its commands as edit values ([`region_op::RegionOp`]), its jobs
//! and its files (selection export and import, stamps), and the Stamps panel.

pub mod region_commands;
pub mod region_controls;
pub mod region_files;
pub mod region_op;
pub mod region_panel;
pub mod region_state;
pub mod region_work;
pub mod selection_handles;
pub mod stamps;

pub use region_state::{export_spec, import_spec, RegionPanel, NAME};
pub use stamps::StampsPanel;
