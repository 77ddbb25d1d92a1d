//! The Recent Files window: the files opened or saved lately, each with the thumbnail written when
//! it was saved ([`crate::files::thumbnails`]), so the list shows what each world looks like
//! without loading it.

use eframe::egui;

use crate::app::action::Action;
use crate::app::panel::{Panel, Placement, View};
use crate::files::thumbnail_textures::ThumbnailTextures;
use crate::files::thumbnails;

/// The window's name.
pub const NAME: &str = "Recent Files";

/// The Recent Files window and its loaded thumbnail textures (`None`: no thumbnail on disk).
#[derive(Default)]
pub struct RecentWindow {
    textures: ThumbnailTextures,
}

impl Panel for RecentWindow {
    fn name(&self) -> &'static str {
        NAME
    }

    fn placement(&self) -> Placement {
        Placement::Window
    }

    fn ui(&mut self, ui: &mut egui::Ui, view: &View<'_>, out: &mut Vec<Action>) {
        let dir = view.config.map(thumbnails::folder);
        if view.prefs.recent.is_empty() {
            ui.label("No recent files yet.");
        }
        for path in &view.prefs.recent {
            ui.horizontal(|ui| {
                let thumb = dir
                    .as_deref()
                    .and_then(|d| self.textures.get(ui.ctx(), d, path));
                match thumb {
                    Some(t) => {
                        ui.add(egui::Image::new(&t).max_size(egui::vec2(64.0, 64.0)));
                    }
                    None => {
                        ui.allocate_exact_size(egui::vec2(64.0, 64.0), egui::Sense::hover());
                    }
                }
                ui.vertical(|ui| {
                    let name = path.file_name().map_or_else(
                        || path.display().to_string(),
                        |n| n.to_string_lossy().into_owned(),
                    );
                    let exists = path.is_file();
                    let open = egui::Button::new(name);
                    if ui.add_enabled(exists && !view.busy, open).clicked() {
                        out.push(Action::Open(Some(path.clone())));
                        out.push(Action::TogglePanel(NAME));
                    }
                    ui.weak(if exists {
                        path.display().to_string()
                    } else {
                        format!("{} (missing)", path.display())
                    });
                });
            });
        }
    }
}
