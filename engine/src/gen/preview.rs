//! A top-down preview of generator settings, drawn from the terrain sampler without generating a
//! single voxel: what the New World dialog shows while the user changes the settings.
//!
//! ```text
//!   WorldSettings ──Terrain──> per pixel (+ a one-pixel rim): surface height, biome blend
//!                         ──> slope from neighbours ──> surface material, water / ice
//!                         ──> render::shade_cells: the same lighting as `strata render`
//! ```
//!
//! One sample per pixel at its centre, so the cost is proportional to the image, not the world: a
//! 256² preview of any world size samples 66 000 columns, and octaves of the height noise finer than
//! two pixels are skipped. Caves are not shown (they are underground).

use rayon::prelude::*;

use super::terrain::Terrain;
use super::WorldSettings;
use crate::render::{fit_size, shade_cells, HeightField, Image, XzBounds};
use crate::voxel::MaterialTable;
use crate::Result;

/// Draw `world` seen from above into an image of at most `longest` pixels on its longer side, with
/// the world's aspect (at least 1 pixel per side). North (−Z) is up, east (+X) right; shading is that
/// of [`crate::render::render_topdown`].
///
/// # Errors
/// [`crate::Error::Invalid`] for invalid settings or a material table lacking a generator material.
pub fn preview_topdown(
    world: &WorldSettings,
    table: &MaterialTable,
    longest: u32,
) -> Result<Image> {
    let terrain = Terrain::from_world(world, table)?;
    let [sx, _, sz] = world.size;
    let bounds = XzBounds {
        x0: 0,
        z0: 0,
        x1: i64::from(sx),
        z1: i64::from(sz),
    };
    let (w, h) = fit_size(Some(bounds), longest.max(1));
    let (w_us, h_us) = (w as usize, h as usize);
    // Voxels per pixel along each axis (the fit keeps them nearly equal).
    let step = [f64::from(sx) / f64::from(w), f64::from(sz) / f64::from(h)];
    let at = |i: isize, size: usize, axis: usize| {
        let i = i.clamp(0, size as isize - 1) as f64;
        (i + 0.5) * step[axis]
    };
    // Heights and blends with a one-pixel rim for slopes (clamped to the world's edge).
    let rim_w = w_us + 2;
    let samples: Vec<_> = (0..(h_us + 2) * rim_w)
        .into_par_iter()
        .map(|i| {
            let (gx, gz) = ((i % rim_w) as isize - 1, (i / rim_w) as isize - 1);
            let (x, z) = (at(gx, w_us, 0), at(gz, h_us, 1));
            terrain.surface_at(x, z)
        })
        .collect();
    let mut field = HeightField::from_cells(w_us, h_us, step[0].max(step[1]) as f32);
    let sea = f64::from(terrain.sea_level());
    let cells: Vec<(f32, u8, f32, u8)> = (0..w_us * h_us)
        .into_par_iter()
        .map(|i| {
            let (px, pz) = (i % w_us, i / w_us);
            let g = (pz + 1) * rim_w + px + 1;
            let (height, blend) = &samples[g];
            let dx = (samples[g + 1].0 - samples[g - 1].0) / (2.0 * step[0]);
            let dz = (samples[g + rim_w].0 - samples[g - rim_w].0) / (2.0 * step[1]);
            let (x, z) = (at(px as isize, w_us, 0), at(pz as isize, h_us, 1));
            let ground = terrain.top_material(x, z, blend, *height, dx.hypot(dz));
            if *height >= sea {
                return (*height as f32, ground, crate::render::NONE, 0);
            }
            let (water, water_top) = terrain.water_top(x, z, blend);
            if water_top != water {
                // Frozen: the ice is the ground seen from above.
                (sea as f32, water_top, crate::render::NONE, 0)
            } else {
                (*height as f32, ground, sea as f32, water)
            }
        })
        .collect();
    for (i, (g, gm, wt, wm)) in cells.into_iter().enumerate() {
        field.ground[i] = g;
        field.ground_material[i] = gm;
        field.water[i] = wt;
        field.water_material[i] = wm;
    }
    Ok(shade_cells(&field, table, (w, h), (0, 0)))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::gen::{generate_world, Biome, BiomeSettings, GeneratorSettings, Preset};
    use crate::progress::Progress;
    use crate::render::render_topdown;

    #[test]
    fn size_follows_the_world_and_every_pixel_is_drawn() {
        let table = MaterialTable::builtin();
        let world = WorldSettings::with_biomes([300, 64, 150], 2, BiomeSettings::default());
        let img = preview_topdown(&world, &table, 120).expect("previews");
        assert_eq!((img.width, img.height), (120, 60));
        assert_eq!(img.rgba.len(), 120 * 60 * 4);
        assert!(img.rgba.chunks_exact(4).all(|p| p[3] == 255));
        assert!(preview_topdown(&world, &table, 0).is_ok());
        let mut bad = world.clone();
        bad.biomes.biome_size = 0;
        assert!(preview_topdown(&bad, &table, 64).is_err());
    }

    #[test]
    fn preview_looks_like_the_generated_world() {
        // Compare with the render of the generated world, pixel by pixel in linear-ish terms: most
        // pixels should be close (the render reads voxels, the preview the sampler).
        let table = MaterialTable::builtin();
        for world in [
            WorldSettings::from_preset(&GeneratorSettings {
                preset: Preset::Islands,
                size: [128, 64, 128],
                seed: 3,
            }),
            WorldSettings::with_biomes(
                [128, 64, 128],
                5,
                BiomeSettings {
                    biomes: vec![Biome::Arctic, Biome::Dunes, Biome::Lavascape, Biome::Water],
                    biome_size: 48,
                    caves: false,
                },
            ),
        ] {
            let preview = preview_topdown(&world, &table, 64).expect("previews");
            let grid = generate_world(&world, &table, &Progress::new()).expect("generates");
            let render = render_topdown(&grid, &table, 64, 64);
            let close = preview
                .rgba
                .chunks_exact(4)
                .zip(render.rgba.chunks_exact(4))
                .filter(|(a, b)| (0..3).all(|c| a[c].abs_diff(b[c]) < 40))
                .count();
            let share = close as f64 / (64.0 * 64.0);
            assert!(
                share > 0.8,
                "{:?}: only {share} of pixels match",
                world.biomes.biomes
            );
        }
    }
}
