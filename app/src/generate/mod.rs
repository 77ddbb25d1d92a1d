//! Generating terrain: the New World window (a world from a preset or a biome mix, previewed from
//! above) and the Generate Terrain panel (fill a box of the open world).

pub mod generate_region;
pub mod new_world;

pub use generate_region::GenerateRegionPanel;
pub use new_world::{default_world, NewWorldWindow};
