//! Every keyboard shortcut of the editor in one table. The editor asks it once per frame which
//! commands were pressed; Help ▸ Keyboard Shortcuts and the preferences window are drawn from it, and
//! the preferences can rebind any command (saved by name, e.g. `"Undo" = "Ctrl+Z"`).
//!
//! Shortcuts with more modifiers are matched first, so Ctrl+Shift+Z (redo) is never taken for Ctrl+Z
//! (egui matches a shortcut without Shift even when Shift is held). A binding may belong to one
//! viewport tool: it applies only while that tool is active and wins over a global binding of the
//! same keys (R rotates a region in the Region tool, and picks Subtract elsewhere).

use eframe::egui::{self, Key, KeyboardShortcut, Modifiers};

/// What a shortcut does.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Command {
    /// File ▸ New World.
    New,
    /// File ▸ Open.
    Open,
    /// File ▸ Save.
    Save,
    /// File ▸ Save As.
    SaveAs,
    /// Edit ▸ Undo.
    Undo,
    /// Edit ▸ Redo.
    Redo,
    /// The n-th brush tool in the Tools panel (0-based).
    BrushTool(u8),
    /// Add tool.
    AddTool,
    /// Subtract tool.
    SubtractTool,
    /// Paint tool.
    PaintTool,
    /// Larger brush.
    BrushLarger,
    /// Smaller brush.
    BrushSmaller,
    /// Focus the camera on the hovered point.
    Focus,
    /// Look along +Z.
    FrontView,
    /// Look along −X.
    RightView,
    /// Look down.
    TopView,
    /// The Physics panel's Drop tool.
    DropTool,
    /// Play or pause the Physics panel's simulation.
    PlayPause,
    /// Region tool: copy the selection.
    RegionCopy,
    /// Region tool: copy the selection, then delete it.
    RegionCut,
    /// Region tool: paste the copied region (a ghost follows the cursor until a click places it).
    RegionPaste,
    /// Region tool: turn the selection to Air.
    RegionDelete,
    /// Region tool: place a copy of the selection beside it.
    RegionDuplicate,
    /// Region tool: turn the selection (or the floating paste) a quarter turn.
    RegionRotate,
    /// Region tool: mirror the selection (or the floating paste).
    RegionMirror,
    /// Region tool: drop the floating paste, else the selection.
    RegionCancel,
}

/// The name of the Region tool, whose bindings (Ctrl+C, R, M, ...) apply only while it is active.
pub const REGION_TOOL: &str = "Region";

impl Command {
    /// The name shown in the shortcut list and saved in the preferences.
    pub fn name(self) -> String {
        match self {
            Command::New => "New World".into(),
            Command::Open => "Open".into(),
            Command::Save => "Save".into(),
            Command::SaveAs => "Save As".into(),
            Command::Undo => "Undo".into(),
            Command::Redo => "Redo".into(),
            Command::BrushTool(i) => format!("Brush tool {}", i + 1),
            Command::AddTool => "Add tool".into(),
            Command::SubtractTool => "Subtract tool".into(),
            Command::PaintTool => "Paint tool".into(),
            Command::BrushLarger => "Larger brush".into(),
            Command::BrushSmaller => "Smaller brush".into(),
            Command::Focus => "Focus hovered point".into(),
            Command::FrontView => "Front view".into(),
            Command::RightView => "Right view".into(),
            Command::TopView => "Top view".into(),
            Command::DropTool => "Drop tool".into(),
            Command::PlayPause => "Play or pause physics".into(),
            Command::RegionCopy => "Copy region".into(),
            Command::RegionCut => "Cut region".into(),
            Command::RegionPaste => "Paste region".into(),
            Command::RegionDelete => "Delete region".into(),
            Command::RegionDuplicate => "Duplicate region".into(),
            Command::RegionRotate => "Rotate region".into(),
            Command::RegionMirror => "Mirror region".into(),
            Command::RegionCancel => "Cancel paste or selection".into(),
        }
    }
}

/// One shortcut.
#[derive(Debug, Clone, PartialEq)]
pub struct Binding {
    /// The command.
    pub command: Command,
    /// The keys.
    pub keys: KeyboardShortcut,
    /// The viewport tool this binding belongs to (`None`: everywhere).
    pub tool: Option<&'static str>,
}

/// Mouse and held-key controls, listed beside the shortcuts (they are not rebindable).
pub const MOUSE: &[(&str, &str)] = &[
    ("Left drag", "Use the active tool (sculpt, paint, ...)"),
    ("Right drag", "Orbit around the point under the cursor"),
    ("Middle drag", "Pan"),
    ("Wheel", "Zoom toward the cursor"),
    (
        "Right button + W A S D",
        "Fly (Q / E down / up, Shift faster)",
    ),
    ("Ctrl (held)", "Invert Add/Subtract, Grow/Erode"),
    ("Shift (held)", "Smooth"),
    ("Alt+click", "Pick the hovered material"),
];

const DIGITS: [Key; 9] = [
    Key::Num1,
    Key::Num2,
    Key::Num3,
    Key::Num4,
    Key::Num5,
    Key::Num6,
    Key::Num7,
    Key::Num8,
    Key::Num9,
];

/// The editor's shortcuts.
#[derive(Debug, Clone, PartialEq)]
pub struct Keymap {
    bindings: Vec<Binding>,
}

fn key(modifiers: Modifiers, key: Key) -> KeyboardShortcut {
    KeyboardShortcut::new(modifiers, key)
}

impl Default for Keymap {
    fn default() -> Self {
        let cmd = Modifiers::COMMAND;
        let cmd_shift = Modifiers::COMMAND | Modifiers::SHIFT;
        let none = Modifiers::NONE;
        let mut bindings: Vec<Binding> = [
            (Command::New, key(cmd, Key::N)),
            (Command::Open, key(cmd, Key::O)),
            (Command::Save, key(cmd, Key::S)),
            (Command::SaveAs, key(cmd_shift, Key::S)),
            (Command::Undo, key(cmd, Key::Z)),
            (Command::Redo, key(cmd_shift, Key::Z)),
            (Command::Redo, key(cmd, Key::Y)),
            (Command::AddTool, key(none, Key::T)),
            (Command::SubtractTool, key(none, Key::R)),
            (Command::PaintTool, key(none, Key::G)),
            (Command::BrushLarger, key(none, Key::CloseBracket)),
            (Command::BrushSmaller, key(none, Key::OpenBracket)),
            (Command::Focus, key(none, Key::F)),
            (Command::FrontView, key(Modifiers::ALT, Key::Num1)),
            (Command::RightView, key(Modifiers::ALT, Key::Num3)),
            (Command::TopView, key(Modifiers::ALT, Key::Num7)),
            (Command::DropTool, key(none, Key::B)),
            (Command::PlayPause, key(none, Key::P)),
        ]
        .into_iter()
        .map(|(command, keys)| Binding {
            command,
            keys,
            tool: None,
        })
        .collect();
        for (command, keys) in [
            (Command::RegionCopy, key(cmd, Key::C)),
            (Command::RegionCut, key(cmd, Key::X)),
            (Command::RegionPaste, key(cmd, Key::V)),
            (Command::RegionDelete, key(none, Key::Delete)),
            (Command::RegionDuplicate, key(cmd, Key::D)),
            (Command::RegionRotate, key(none, Key::R)),
            (Command::RegionMirror, key(none, Key::M)),
            (Command::RegionCancel, key(none, Key::Escape)),
        ] {
            bindings.push(Binding {
                command,
                keys,
                tool: Some(REGION_TOOL),
            });
        }
        for (i, k) in DIGITS.iter().enumerate() {
            bindings.push(Binding {
                command: Command::BrushTool(i as u8),
                keys: key(none, *k),
                tool: None,
            });
        }
        Self { bindings }
    }
}

/// Modifier names as the shortcut list and the preferences spell them.
const NAMES: egui::ModifierNames<'static> = egui::ModifierNames {
    is_short: false,
    alt: "Alt",
    ctrl: "Ctrl",
    shift: "Shift",
    mac_cmd: "Cmd",
    mac_alt: "Option",
    concat: "+",
};

/// `Ctrl+Shift+Z` style text of a shortcut.
pub fn shortcut_text(keys: &KeyboardShortcut) -> String {
    keys.format(&NAMES, false)
}

/// Parse `Ctrl+Shift+Z` style text (modifiers Ctrl, Cmd, Alt, Shift, in any order; one key).
pub fn parse_shortcut(text: &str) -> Option<KeyboardShortcut> {
    let mut modifiers = Modifiers::NONE;
    let mut key = None;
    for part in text.split('+').map(str::trim) {
        match part.to_ascii_lowercase().as_str() {
            "ctrl" | "cmd" | "command" => modifiers |= Modifiers::COMMAND,
            "alt" | "option" => modifiers |= Modifiers::ALT,
            "shift" => modifiers |= Modifiers::SHIFT,
            _ if key.is_none() => key = Some(Key::from_name(part)?),
            _ => return None,
        }
    }
    Some(KeyboardShortcut::new(modifiers, key?))
}

impl Keymap {
    /// Every binding, in table order.
    pub fn bindings(&self) -> &[Binding] {
        &self.bindings
    }

    /// Add the bindings a viewport tool brings (they apply while it is active).
    pub fn add_tool_bindings(
        &mut self,
        tool: &'static str,
        bindings: &[(Command, KeyboardShortcut)],
    ) {
        for (command, keys) in bindings {
            self.bindings.push(Binding {
                command: *command,
                keys: *keys,
                tool: Some(tool),
            });
        }
    }

    /// The first shortcut of `command`, as text (for menus).
    pub fn text_of(&self, command: Command) -> Option<String> {
        self.bindings
            .iter()
            .find(|b| b.command == command)
            .map(|b| shortcut_text(&b.keys))
    }

    /// Replace the shortcuts of `command` by `keys`.
    pub fn rebind(&mut self, command: Command, keys: KeyboardShortcut) {
        let tool = self
            .bindings
            .iter()
            .find(|b| b.command == command)
            .and_then(|b| b.tool);
        self.bindings.retain(|b| b.command != command);
        self.bindings.push(Binding {
            command,
            keys,
            tool,
        });
    }

    /// Apply saved overrides (`command name` → `shortcut text`); unknown names or keys are skipped
    /// and returned, so a bad preferences file never stops the editor.
    pub fn apply_overrides(&mut self, overrides: &[(String, String)]) -> Vec<String> {
        let mut skipped = Vec::new();
        for (name, text) in overrides {
            let command = self
                .bindings
                .iter()
                .map(|b| b.command)
                .find(|c| c.name() == *name);
            match (command, parse_shortcut(text)) {
                (Some(c), Some(keys)) => self.rebind(c, keys),
                _ => skipped.push(format!("{name} = {text}")),
            }
        }
        skipped
    }

    /// The overrides that turn the default keymap into this one.
    pub fn overrides(&self) -> Vec<(String, String)> {
        let default = Keymap::default();
        let mut out = Vec::new();
        for b in &self.bindings {
            let same = default
                .bindings
                .iter()
                .any(|d| d.command == b.command && d.keys == b.keys);
            if !same {
                out.push((b.command.name(), shortcut_text(&b.keys)));
            }
        }
        out
    }

    /// The commands pressed this frame, consumed from the input; none while a text field has the
    /// keyboard. `active_tool` selects the tool-specific bindings.
    pub fn pressed(&self, ctx: &egui::Context, active_tool: &str) -> Vec<Command> {
        if ctx.egui_wants_keyboard_input() {
            return Vec::new();
        }
        let mut order: Vec<&Binding> = self
            .bindings
            .iter()
            .filter(|b| b.tool.is_none_or(|t| t == active_tool))
            .collect();
        // More modifiers first, then tool bindings before global ones of the same keys.
        order.sort_by_key(|b| {
            let m = b.keys.modifiers;
            let count = u8::from(m.alt) + u8::from(m.command || m.ctrl) + u8::from(m.shift);
            (std::cmp::Reverse(count), b.tool.is_none())
        });
        ctx.input_mut(|i| {
            order
                .into_iter()
                .filter(|b| i.consume_shortcut(&b.keys) || consume_clipboard_event(i, &b.keys))
                .map(|b| b.command)
                .collect()
        })
    }
}

/// The desktop integration turns Ctrl+C / Ctrl+X / Ctrl+V into clipboard events instead of key
/// presses: consume the one that stands for `keys`, if any.
fn consume_clipboard_event(input: &mut egui::InputState, keys: &KeyboardShortcut) -> bool {
    if keys.modifiers != Modifiers::COMMAND {
        return false;
    }
    let wanted = |e: &egui::Event| {
        matches!(
            (keys.logical_key, e),
            (Key::C, egui::Event::Copy)
                | (Key::X, egui::Event::Cut)
                | (Key::V, egui::Event::Paste(_))
        )
    };
    match input.events.iter().position(wanted) {
        Some(at) => {
            input.events.remove(at);
            true
        }
        None => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shortcut_text_round_trips_for_every_default_binding() {
        for b in Keymap::default().bindings() {
            let text = shortcut_text(&b.keys);
            assert_eq!(parse_shortcut(&text), Some(b.keys), "{text}");
        }
        assert_eq!(parse_shortcut("Ctrl+"), None);
        assert_eq!(parse_shortcut("Ctrl+Q+W"), None);
        assert_eq!(parse_shortcut("Hyper+Q"), None);
    }

    #[test]
    fn overrides_round_trip_and_bad_ones_are_skipped() {
        let mut map = Keymap::default();
        let skipped = map.apply_overrides(&[
            ("Undo".into(), "Ctrl+U".into()),
            ("Nonsense".into(), "Ctrl+U".into()),
            ("Save".into(), "Ctrl+NoSuchKey".into()),
        ]);
        assert_eq!(skipped.len(), 2);
        assert_eq!(map.text_of(Command::Undo).as_deref(), Some("Ctrl+U"));
        let mut again = Keymap::default();
        assert!(again.apply_overrides(&map.overrides()).is_empty());
        assert_eq!(again.text_of(Command::Undo).as_deref(), Some("Ctrl+U"));
        assert!(Keymap::default().overrides().is_empty());
    }

    fn press(map: &Keymap, modifiers: Modifiers, key: Key, tool: &str) -> Vec<Command> {
        send(
            map,
            egui::Event::Key {
                key,
                physical_key: None,
                pressed: true,
                repeat: false,
                modifiers,
            },
            tool,
        )
    }

    fn send(map: &Keymap, event: egui::Event, tool: &str) -> Vec<Command> {
        let ctx = egui::Context::default();
        let mut found = Vec::new();
        let input = egui::RawInput {
            events: vec![event],
            ..Default::default()
        };
        let mut output = ctx.run_ui(input, |ui| found = map.pressed(ui.ctx(), tool));
        // Nothing is painted: drop the font atlas upload this first frame queued.
        output.textures_delta.clear();
        found
    }

    #[test]
    fn ctrl_shift_z_redoes_and_ctrl_z_undoes() {
        let map = Keymap::default();
        let cmd_shift = Modifiers::COMMAND | Modifiers::SHIFT;
        assert_eq!(press(&map, cmd_shift, Key::Z, ""), vec![Command::Redo]);
        assert_eq!(
            press(&map, Modifiers::COMMAND, Key::Z, ""),
            vec![Command::Undo]
        );
        assert_eq!(
            press(&map, Modifiers::COMMAND, Key::Y, ""),
            vec![Command::Redo]
        );
        assert_eq!(
            press(&map, Modifiers::NONE, Key::R, ""),
            vec![Command::SubtractTool]
        );
        assert_eq!(
            press(&map, Modifiers::ALT, Key::Num1, ""),
            vec![Command::FrontView]
        );
        assert_eq!(
            press(&map, Modifiers::NONE, Key::Num1, ""),
            vec![Command::BrushTool(0)]
        );
    }

    #[test]
    fn tool_bindings_win_while_their_tool_is_active() {
        let mut map = Keymap::default();
        map.add_tool_bindings("Other", &[(Command::Focus, key(Modifiers::NONE, Key::R))]);
        assert_eq!(
            press(&map, Modifiers::NONE, Key::R, "Other"),
            vec![Command::Focus]
        );
        assert_eq!(
            press(&map, Modifiers::NONE, Key::R, REGION_TOOL),
            vec![Command::RegionRotate]
        );
        assert_eq!(
            press(&map, Modifiers::COMMAND, Key::C, REGION_TOOL),
            vec![Command::RegionCopy]
        );
        assert!(press(&map, Modifiers::COMMAND, Key::C, "Tools").is_empty());
        // What the desktop integration sends for Ctrl+C, Ctrl+X and Ctrl+V.
        assert_eq!(
            send(&map, egui::Event::Copy, REGION_TOOL),
            vec![Command::RegionCopy]
        );
        assert_eq!(
            send(&map, egui::Event::Cut, REGION_TOOL),
            vec![Command::RegionCut]
        );
        assert_eq!(
            send(&map, egui::Event::Paste("x".into()), REGION_TOOL),
            vec![Command::RegionPaste]
        );
        assert!(send(&map, egui::Event::Copy, "Tools").is_empty());
        assert_eq!(
            press(&map, Modifiers::NONE, Key::R, "Tools"),
            vec![Command::SubtractTool]
        );
    }
}
