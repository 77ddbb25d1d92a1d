//! The sun and sky widgets of the Lighting panel: the sky disc to drag the sun on, azimuth and
//! elevation conversions, and a colour with an intensity above 1.

use eframe::egui;

/// Azimuth (degrees clockwise from +Z toward +X, seen from above) and elevation (degrees above the
/// horizon) of a direction.
pub(super) fn angles(dir: [f32; 3]) -> (f32, f32) {
    let len = (dir[0] * dir[0] + dir[1] * dir[1] + dir[2] * dir[2]).sqrt();
    if len.is_nan() || len <= 1e-6 {
        return (0.0, 90.0);
    }
    let elevation = (dir[1] / len).clamp(-1.0, 1.0).asin().to_degrees();
    let azimuth = dir[0].atan2(dir[2]).to_degrees().rem_euclid(360.0);
    (azimuth, elevation)
}

/// The unit direction of an azimuth and elevation (see [`angles`]).
pub(super) fn direction(azimuth: f32, elevation: f32) -> [f32; 3] {
    let (a, e) = (azimuth.to_radians(), elevation.to_radians());
    [e.cos() * a.sin(), e.sin(), e.cos() * a.cos()]
}

/// A colour with components above 1 as (a colour with its largest component 1, an intensity).
fn split(rgb: [f32; 3]) -> ([f32; 3], f32) {
    let i = rgb.iter().copied().fold(0.0f32, f32::max);
    if i <= 0.0 {
        return ([1.0; 3], 0.0);
    }
    (rgb.map(|c| c / i), i)
}

pub(super) fn colour(ui: &mut egui::Ui, label: &str, hint: &str, rgb: &mut [f32; 3]) {
    ui.horizontal(|ui| {
        ui.label(label).on_hover_text(hint);
        let (mut c, mut i) = split(*rgb);
        let changed = egui::color_picker::color_edit_button_rgb(ui, &mut c).changed()
            | ui.add(
                egui::DragValue::new(&mut i)
                    .range(0.0..=8.0)
                    .speed(0.02)
                    .prefix("× "),
            )
            .on_hover_text("Intensity")
            .changed();
        if changed {
            *rgb = c.map(|x| x * i);
        }
    });
}

/// A small disc of the sky seen from above: the centre is straight up, the rim the horizon, north
/// (+Z) at the top. A click or drag puts the sun there.
pub(super) fn sky_disc(ui: &mut egui::Ui, sun: &mut [f32; 3]) -> egui::Response {
    let size = 88.0;
    let (rect, response) =
        ui.allocate_exact_size(egui::vec2(size, size), egui::Sense::click_and_drag());
    let c = rect.center();
    let r = size / 2.0 - 4.0;
    let painter = ui.painter_at(rect);
    painter.circle_filled(c, r, egui::Color32::from_rgb(70, 110, 160));
    painter.circle_stroke(
        c,
        r * 0.5,
        egui::Stroke::new(1.0, egui::Color32::from_white_alpha(60)),
    );
    if let Some(p) = response.interact_pointer_pos() {
        let d = (p - c) / r;
        let len = d.length().min(1.0);
        // Distance from the centre is the angle from the zenith.
        let elevation = 90.0 * (1.0 - len);
        let azimuth = d.x.atan2(-d.y).to_degrees();
        *sun = direction(azimuth, elevation.max(1.0));
    }
    let (azimuth, elevation) = angles(*sun);
    let t = 1.0 - elevation.clamp(0.0, 90.0) / 90.0;
    let a = azimuth.to_radians();
    let at = c + egui::vec2(a.sin(), -a.cos()) * r * t;
    painter.circle_filled(at, 6.0, egui::Color32::from_rgb(255, 220, 120));
    response.on_hover_text("The sky from above (north up): drag the sun")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn angles_and_directions_round_trip() {
        for (a, e) in [(0.0, 45.0), (90.0, 10.0), (200.0, 80.0), (359.0, 1.0)] {
            let (a2, e2) = angles(direction(a, e));
            assert!(
                (a2 - a).abs() < 1e-3 && (e2 - e).abs() < 1e-3,
                "{a},{e} -> {a2},{e2}"
            );
        }
        assert_eq!(angles([0.0; 3]), (0.0, 90.0));
        let (c, i) = split([1.6, 1.8, 2.2]);
        assert!((i - 2.2).abs() < 1e-6 && (c[2] - 1.0).abs() < 1e-6);
        assert_eq!(split([0.0; 3]).1, 0.0);
    }
}
