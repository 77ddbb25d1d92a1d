//! Brush tools: the Tools panel (tool buttons, brush, materials) and the viewport input that turns
//! drags into strokes. The strokes themselves are the engine's (`strata_engine::tools`).

pub mod brush_input;
pub mod brush_panel;

pub use brush_panel::ToolsPanel;
