//! Which of WebKitGTK's renderers draws the window, chosen before the webview starts.
//!
//! Since 2.42 WebKitGTK draws through its DMA-BUF renderer: the web process renders each frame with
//! GL into buffers it shares with the app's process. Without a GPU (no DRM render node: a virtual
//! machine, a container, Xvfb in CI) that GL is Mesa's software rasterizer, and every frame is drawn
//! and then read back on the CPU. There the shared-memory renderer is much faster: on a 2-core
//! machine without a GPU it took a keystroke on 5,000 sections to the preview from 58 / 122 ms to
//! 31 / 75 ms (p50 / p99, one run of the same binary). With a GPU the DMA-BUF renderer is the
//! faster one, so it stays. A `WEBKIT_DISABLE_DMABUF_RENDERER` the user set, to either value, always wins.
//!
//! Without a GPU, GTK's own GL goes too (`GDK_GL=disable`, unless the user set `GDK_GL`): GDK
//! otherwise sets up GLX when it opens the display, to pick its visuals, which loads Mesa's software
//! rasterizer and LLVM before the webview starts, for nothing: with shared memory the app's process
//! draws the frames with cairo. That took about 25 ms off the start to the preview here.

use std::ffi::OsStr;
use std::path::Path;

/// WebKitGTK's switch: set (to anything but `0`), frames go through shared memory instead.
pub const DMABUF_SWITCH: &str = "WEBKIT_DISABLE_DMABUF_RENDERER";
/// GTK 3's switches for its GL (`disable`: GDK never sets GL up).
pub const GDK_GL_SWITCH: &str = "GDK_GL";
/// Where Linux lists the GPUs' DRM nodes; a GPU that can render has a `renderD*` node there.
const DRM_NODES: &str = "/dev/dri";

/// The renderer the webview draws with, and why.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RendererChoice {
    /// The user set `WEBKIT_DISABLE_DMABUF_RENDERER`: WebKitGTK follows it.
    AsTheUserSet,
    /// A GPU can render: WebKitGTK's default, DMA-BUF.
    DmabufOnTheGpu,
    /// No GPU: shared memory, not DMA-BUF drawn in software.
    SharedMemoryWithoutGpu,
    /// Not Linux: the webview is not WebKitGTK, nothing to choose.
    NotWebKitGtk,
}

/// The choice for a user's own setting of the switch (if any) on a machine with or without a GPU.
pub fn choose(user_setting: Option<&OsStr>, has_render_node: bool) -> RendererChoice {
    match (user_setting, has_render_node) {
        (Some(_), _) => RendererChoice::AsTheUserSet,
        (None, true) => RendererChoice::DmabufOnTheGpu,
        (None, false) => RendererChoice::SharedMemoryWithoutGpu,
    }
}

/// Whether `drm_nodes` (normally `/dev/dri`) lists a render node; a missing folder lists none.
pub fn has_render_node(drm_nodes: &Path) -> bool {
    std::fs::read_dir(drm_nodes)
        .map(|entries| entries.flatten().any(|entry| entry.file_name().to_string_lossy().starts_with("renderD")))
        .unwrap_or(false)
}

/// Chooses the renderer for this machine and sets the switch when shared memory is the choice.
/// Call it first thing in `main`: the environment is only changed while no other thread runs,
/// and WebKitGTK's processes inherit it.
pub fn choose_for_this_machine() -> RendererChoice {
    if !cfg!(target_os = "linux") {
        return RendererChoice::NotWebKitGtk;
    }
    let has_gpu = has_render_node(Path::new(DRM_NODES));
    let choice = choose(std::env::var_os(DMABUF_SWITCH).as_deref(), has_gpu);
    if choice == RendererChoice::SharedMemoryWithoutGpu {
        std::env::set_var(DMABUF_SWITCH, "1");
    }
    if gdk_gl_off(std::env::var_os(GDK_GL_SWITCH).as_deref(), has_gpu) {
        std::env::set_var(GDK_GL_SWITCH, "disable");
    }
    choice
}

/// Whether GTK's GL is switched off: on a machine without a GPU, unless the user set `GDK_GL`.
pub fn gdk_gl_off(user_setting: Option<&OsStr>, has_render_node: bool) -> bool {
    user_setting.is_none() && !has_render_node
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_user_setting_wins_either_way() {
        for setting in ["0", "1"] {
            for gpu in [true, false] {
                assert_eq!(choose(Some(OsStr::new(setting)), gpu), RendererChoice::AsTheUserSet);
            }
        }
    }

    #[test]
    fn dmabuf_stays_with_a_gpu_and_goes_without_one() {
        assert_eq!(choose(None, true), RendererChoice::DmabufOnTheGpu);
        assert_eq!(choose(None, false), RendererChoice::SharedMemoryWithoutGpu);
    }

    #[test]
    fn gtk_gl_goes_only_without_a_gpu_and_a_user_setting_wins() {
        assert!(gdk_gl_off(None, false));
        assert!(!gdk_gl_off(None, true));
        for setting in ["disable", "always", ""] {
            assert!(!gdk_gl_off(Some(OsStr::new(setting)), false), "{setting}");
        }
    }

    #[test]
    fn only_a_render_node_counts_as_a_gpu() {
        let dri = tempfile::tempdir().expect("temp dir");
        assert!(!has_render_node(&dri.path().join("missing")), "no /dev/dri at all");
        assert!(!has_render_node(dri.path()), "an empty /dev/dri");
        // A display-only device (a "card" node without a render node) cannot draw the frames.
        std::fs::write(dri.path().join("card0"), "").unwrap();
        assert!(!has_render_node(dri.path()));
        std::fs::write(dri.path().join("renderD128"), "").unwrap();
        assert!(has_render_node(dri.path()));
    }
}
