//! The editor's panels and dialogs, one file each. They read the app's state and call its methods;
//! the voxel work happens in the document and the engine.

pub mod dialogs;
pub mod menu;
pub mod recent;
pub mod status;
pub mod tools;
