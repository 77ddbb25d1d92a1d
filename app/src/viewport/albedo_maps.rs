//! The project's material textures as the terrain shader samples them: every texture a material
//! of the table uses, decoded and resized to one layer of a texture array, plus per material id
//! its linear colour, its layer (or none) and its emitted light.
//!
//! ```text
//!   table row ──texture hash──> Textures (PNG) ──decode, resize to SIDE²──> layer k
//!   tints[id]  = (linear colour, k or -1)      glows[id] = linear radiance of its emission
//! ```
//!
//! Decoded layers are kept by hash ([`AlbedoCache`]), so recolouring a textured world does not
//! decode its images again. A texture that does not decode draws as its material's colour.

use std::collections::HashMap;

use image::imageops::FilterType;
use strata_engine::voxel::{linear_palette, MaterialTable, Textures, MATERIAL_COUNT};

/// Side of one layer, pixels (textures are resized to it: one array holds them all).
pub const SIDE: u32 = 256;

/// The shader's view of the table's textures and emission (CPU side, uploaded by the scene).
#[derive(Debug, Clone, PartialEq)]
pub struct AlbedoLayers {
    /// RGBA pixels (sRGB) of each layer, `SIDE × SIDE`; at least one (white) so the array exists.
    pub layers: Vec<Vec<[u8; 4]>>,
    /// Per id: linear colour and texture layer (-1: none).
    pub tints: Vec<[f32; 4]>,
    /// Per id: emitted light, linear RGB (zero: none).
    pub glows: Vec<[f32; 3]>,
}

/// Decoded layers by texture hash (`None`: did not decode).
#[derive(Debug, Default)]
pub struct AlbedoCache(HashMap<u64, Option<Vec<[u8; 4]>>>);

impl AlbedoCache {
    fn layer(&mut self, hash: u64, png: Option<&[u8]>) -> Option<&Vec<[u8; 4]>> {
        self.0
            .entry(hash)
            .or_insert_with(|| {
                let image = crate::files::png::decode(png?).ok()?;
                let rgba = image
                    .resize_exact(SIDE, SIDE, FilterType::Triangle)
                    .to_rgba8();
                Some(rgba.pixels().map(|p| p.0).collect::<Vec<[u8; 4]>>())
            })
            .as_ref()
    }
}

/// The layers, tints and glows of `table` with the images of `textures`.
pub fn build(table: &MaterialTable, textures: &Textures, cache: &mut AlbedoCache) -> AlbedoLayers {
    let palette = linear_palette(table);
    let mut layers: Vec<Vec<[u8; 4]>> = Vec::new();
    let mut layer_of: HashMap<u64, usize> = HashMap::new();
    let mut tints: Vec<[f32; 4]> = palette.iter().map(|c| [c[0], c[1], c[2], -1.0]).collect();
    let mut glows = vec![[0.0f32; 3]; MATERIAL_COUNT];
    for (id, m) in table.materials.iter().enumerate().take(MATERIAL_COUNT) {
        if let Some(e) = m.emission.filter(|e| !e.is_dark()) {
            glows[id] = e.radiance();
        }
        let Some(t) = m.texture else { continue };
        let k = match layer_of.get(&t.hash) {
            Some(&k) => Some(k),
            None => cache.layer(t.hash, textures.png(&t)).map(|pixels| {
                layers.push(pixels.clone());
                layer_of.insert(t.hash, layers.len() - 1);
                layers.len() - 1
            }),
        };
        if let Some(k) = k {
            tints[id][3] = k as f32;
        }
    }
    if layers.is_empty() {
        layers.push(vec![[255; 4]; 1]);
    }
    AlbedoLayers {
        layers,
        tints,
        glows,
    }
}

impl AlbedoLayers {
    /// Side of the layers, pixels (1 when no material has a texture).
    pub fn side(&self) -> u32 {
        if self.layers.first().is_some_and(|l| l.len() == 1) {
            1
        } else {
            SIDE
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use strata_engine::materials::{set, MaterialPatch};
    use strata_engine::voxel::Emission;

    fn png(rgba: [u8; 4]) -> Vec<u8> {
        let pixels: Vec<u8> = (0..16).flat_map(|_| rgba).collect();
        crate::files::png::encode_rgba(&pixels, 4, 4, std::path::Path::new("t.png")).expect("png")
    }

    #[test]
    fn textured_and_glowing_materials_get_layers_and_glows() {
        let mut textures = Textures::default();
        let red = textures.add(png([255, 0, 0, 255])).expect("red");
        let table = MaterialTable::builtin();
        let plain = build(&table, &textures, &mut AlbedoCache::default());
        assert_eq!(plain.layers.len(), 1);
        assert_eq!(plain.side(), 1);
        assert!(plain.tints.iter().all(|t| t[3] < 0.0));
        let patch = MaterialPatch {
            texture: Some(Some(red)),
            emission: Some(Some(Emission {
                color: (255, 255, 255),
                strength: 2.0,
            })),
            ..MaterialPatch::default()
        };
        let t = set(&table, "Rock", &patch).expect("set").table;
        let t = set(&t, "Sand", &patch).expect("set").table;
        let mut cache = AlbedoCache::default();
        let layers = build(&t, &textures, &mut cache);
        assert_eq!(layers.layers.len(), 1, "one image, one layer");
        assert_eq!(layers.side(), SIDE);
        assert_eq!(layers.layers[0][0], [255, 0, 0, 255]);
        let rock = usize::from(t.require("Rock").expect("rock"));
        assert_eq!(layers.tints[rock][3], 0.0);
        assert_eq!(layers.glows[rock], [2.0, 2.0, 2.0]);
        let grass = usize::from(t.require("Grass").expect("grass"));
        assert_eq!(layers.tints[grass][3], -1.0);
        assert_eq!(layers.glows[grass], [0.0; 3]);
    }
}
