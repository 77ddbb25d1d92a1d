//! The scene's binary data: buffer views and accessors, plain or meshopt-compressed, and the
//! `.glb` / `.gltf` container around the JSON.
//!
//! ```text
//!   plain:      buffer 0 = every view's bytes (GLB BIN chunk, or a base64 data URI in .gltf)
//!   meshopt:    buffer 0 = EXT_meshopt_compression streams + images
//!               buffer 1 = the fallback: byteLength only, {"fallback": true}; every geometry view
//!                          points into it and names its compressed stream in buffer 0
//!                          (the extension is required, so no reader needs the fallback bytes)
//! ```
//!
//! Every vertex element is padded to a multiple of 4 bytes, the alignment glTF asks of vertex
//! attributes and the meshopt vertex codec's unit; the vertex codec is written at version 0, the
//! one `EXT_meshopt_compression` defines (meshoptimizer 1.x defaults to version 1).

use serde_json::{json, Value};

use crate::{Error, Result};

/// glTF `bufferView.target` of vertex data.
const ARRAY_BUFFER: u32 = 34962;
/// glTF `bufferView.target` of index data.
const ELEMENT_ARRAY_BUFFER: u32 = 34963;
/// glTF component type of `f32`.
pub(super) const FLOAT: u32 = 5126;
/// glTF component type of `u8`.
pub(super) const UNSIGNED_BYTE: u32 = 5121;
/// glTF component type of `i8`.
pub(super) const BYTE: u32 = 5120;
/// glTF component type of `u16`.
pub(super) const UNSIGNED_SHORT: u32 = 5123;
/// glTF component type of `u32`.
const UNSIGNED_INT: u32 = 5125;

/// How one vertex attribute's elements read.
#[derive(Debug, Clone, Copy)]
pub(super) struct Layout {
    /// glTF component type.
    pub component: u32,
    /// Components per element (1 to 4).
    pub components: usize,
    /// Integer components read as 0..1 (or −1..1).
    pub normalized: bool,
}

/// The growing buffers, views and accessors of one scene.
#[derive(Debug, Default)]
pub(super) struct SceneBin {
    compress: bool,
    bytes: Vec<u8>,
    fallback_len: usize,
    views: Vec<Value>,
    accessors: Vec<Value>,
}

impl SceneBin {
    /// Empty buffers; `compress` encodes geometry with the meshopt codecs.
    pub fn new(compress: bool) -> Self {
        Self {
            compress,
            ..Self::default()
        }
    }

    fn pad(bytes: &mut Vec<u8>) {
        while !bytes.len().is_multiple_of(4) {
            bytes.push(0);
        }
    }

    /// A geometry view over `raw` (elements of `stride` bytes, `count` of them); returns its index.
    fn geometry_view(
        &mut self,
        raw: &[u8],
        stride: usize,
        count: usize,
        index: bool,
    ) -> Result<usize> {
        let target = if index {
            ELEMENT_ARRAY_BUFFER
        } else {
            ARRAY_BUFFER
        };
        let mut view = if self.compress {
            let encoded = if index {
                let list: Vec<u32> = raw
                    .chunks_exact(stride)
                    .map(|c| {
                        let mut b = [0u8; 4];
                        b[..stride].copy_from_slice(c);
                        u32::from_le_bytes(b)
                    })
                    .collect();
                let vertices = list.iter().max().map_or(0, |&m| m as usize + 1);
                meshopt::encoding::encode_index_buffer(&list, vertices)
            } else {
                encode_vertices(raw, stride)
            }
            .map_err(|e| Error::Invalid(format!("meshopt encoding: {e}")))?;
            Self::pad(&mut self.bytes);
            let offset = self.bytes.len();
            self.bytes.extend_from_slice(&encoded);
            self.fallback_len = self.fallback_len.next_multiple_of(4);
            let fallback_offset = self.fallback_len;
            self.fallback_len += raw.len();
            let mode = if index { "TRIANGLES" } else { "ATTRIBUTES" };
            json!({"buffer": 1, "byteOffset": fallback_offset, "byteLength": raw.len(),
                "extensions": {"EXT_meshopt_compression": {"buffer": 0, "byteOffset": offset,
                    "byteLength": encoded.len(), "byteStride": stride, "count": count,
                    "mode": mode}}})
        } else {
            Self::pad(&mut self.bytes);
            let offset = self.bytes.len();
            self.bytes.extend_from_slice(raw);
            json!({"buffer": 0, "byteOffset": offset, "byteLength": raw.len()})
        };
        view["target"] = json!(target);
        if !index {
            view["byteStride"] = json!(stride);
        }
        self.views.push(view);
        Ok(self.views.len() - 1)
    }

    /// Append a vertex attribute: `count` elements of `stride` bytes in `raw`, read as `layout`,
    /// with `bounds` (min, max) when the attribute needs them. Returns the accessor index.
    ///
    /// # Errors
    /// [`Error::Invalid`] when the meshopt encoder fails.
    pub fn attribute(
        &mut self,
        raw: &[u8],
        stride: usize,
        layout: Layout,
        bounds: Option<(Vec<f64>, Vec<f64>)>,
    ) -> Result<usize> {
        let count = raw.len() / stride;
        let view = self.geometry_view(raw, stride, count, false)?;
        let kind = ["SCALAR", "VEC2", "VEC3", "VEC4"][layout.components - 1];
        let mut acc = json!({"bufferView": view, "componentType": layout.component,
            "count": count, "type": kind});
        if layout.normalized {
            acc["normalized"] = json!(true);
        }
        if let Some((lo, hi)) = bounds {
            acc["min"] = json!(lo);
            acc["max"] = json!(hi);
        }
        self.accessors.push(acc);
        Ok(self.accessors.len() - 1)
    }

    /// Append a triangle list over `vertices` vertices (16-bit indices when they fit). Returns the
    /// accessor index.
    ///
    /// # Errors
    /// [`Error::Invalid`] when the meshopt encoder fails.
    pub fn indices(&mut self, list: &[u32], vertices: usize) -> Result<usize> {
        let short = vertices <= usize::from(u16::MAX);
        let (raw, stride, component) = if short {
            let raw: Vec<u8> = list
                .iter()
                .flat_map(|&i| (i as u16).to_le_bytes())
                .collect();
            (raw, 2, UNSIGNED_SHORT)
        } else {
            let raw: Vec<u8> = list.iter().flat_map(|&i| i.to_le_bytes()).collect();
            (raw, 4, UNSIGNED_INT)
        };
        let view = self.geometry_view(&raw, stride, list.len(), true)?;
        self.accessors
            .push(json!({"bufferView": view, "componentType": component,
            "count": list.len(), "type": "SCALAR"}));
        Ok(self.accessors.len() - 1)
    }

    /// Append raw bytes (an image) uncompressed in buffer 0; returns the buffer view index.
    pub fn blob(&mut self, data: &[u8]) -> usize {
        Self::pad(&mut self.bytes);
        let offset = self.bytes.len();
        self.bytes.extend_from_slice(data);
        self.views
            .push(json!({"buffer": 0, "byteOffset": offset, "byteLength": data.len()}));
        self.views.len() - 1
    }

    /// Put the buffers, views and accessors into `doc` and lay out the file: binary glTF, or text
    /// glTF with buffer 0 as a base64 data URI when `text`.
    ///
    /// # Errors
    /// [`Error::Invalid`] when a `.glb` would pass 4 GiB.
    pub fn finish(mut self, mut doc: Value, text: bool) -> Result<Vec<u8>> {
        Self::pad(&mut self.bytes);
        if !self.views.is_empty() {
            let mut main = json!({"byteLength": self.bytes.len()});
            if text {
                main["uri"] = json!(format!(
                    "data:application/octet-stream;base64,{}",
                    base64(&self.bytes)
                ));
            }
            let mut buffers = vec![main];
            if self.compress {
                buffers.push(
                    json!({"byteLength": self.fallback_len.next_multiple_of(4).max(4),
                    "extensions": {"EXT_meshopt_compression": {"fallback": true}}}),
                );
            }
            doc["buffers"] = Value::Array(buffers);
            doc["bufferViews"] = Value::Array(self.views);
            doc["accessors"] = Value::Array(self.accessors);
        }
        let json_bytes =
            serde_json::to_vec(&doc).map_err(|e| Error::Invalid(format!("glTF JSON: {e}")))?;
        if text {
            return Ok(json_bytes);
        }
        crate::mesh::gltf::glb_container(json_bytes, &self.bytes, "scene")
    }
}

/// `raw` (elements of `stride` bytes) through the meshopt vertex codec, version 0.
fn encode_vertices(raw: &[u8], stride: usize) -> meshopt::Result<Vec<u8>> {
    fn encode<const N: usize>(raw: &[u8]) -> meshopt::Result<Vec<u8>> {
        let elements: Vec<[u8; N]> = raw
            .chunks_exact(N)
            .map(|c| {
                let mut e = [0u8; N];
                e.copy_from_slice(c);
                e
            })
            .collect();
        meshopt::encoding::encode_vertex_buffer_level(&elements, 2, Some(0))
    }
    match stride {
        4 => encode::<4>(raw),
        8 => encode::<8>(raw),
        12 => encode::<12>(raw),
        _ => encode::<16>(raw),
    }
}

/// Standard base64 with padding (RFC 4648), for data URIs.
fn base64(bytes: &[u8]) -> String {
    const ALPHABET: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    let mut out = String::with_capacity(bytes.len().div_ceil(3) * 4);
    for group in bytes.chunks(3) {
        let b = [
            group[0],
            group.get(1).copied().unwrap_or(0),
            group.get(2).copied().unwrap_or(0),
        ];
        let n = (u32::from(b[0]) << 16) | (u32::from(b[1]) << 8) | u32::from(b[2]);
        for k in 0..4 {
            if k <= group.len() {
                out.push(char::from(ALPHABET[(n >> (18 - 6 * k)) as usize & 63]));
            } else {
                out.push('=');
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn base64_matches_rfc_4648_vectors() {
        let cases = [
            ("", ""),
            ("f", "Zg=="),
            ("fo", "Zm8="),
            ("foo", "Zm9v"),
            ("foob", "Zm9vYg=="),
            ("fooba", "Zm9vYmE="),
            ("foobar", "Zm9vYmFy"),
        ];
        for (plain, encoded) in cases {
            assert_eq!(base64(plain.as_bytes()), encoded);
        }
    }

    #[test]
    fn compressed_views_name_their_stream_and_fallback() {
        let mut bin = SceneBin::new(true);
        let raw: Vec<u8> = (0..64u8).collect();
        let layout = Layout {
            component: UNSIGNED_BYTE,
            components: 4,
            normalized: true,
        };
        bin.attribute(&raw, 4, layout, None).expect("encode");
        let view = &bin.views[0];
        assert_eq!(view["buffer"], 1);
        let ext = &view["extensions"]["EXT_meshopt_compression"];
        assert_eq!(ext["mode"], "ATTRIBUTES");
        assert_eq!(ext["count"], 16);
        let decoded: Vec<[u8; 4]> =
            meshopt::encoding::decode_vertex_buffer(&bin.bytes, 16).expect("decode");
        assert_eq!(decoded.concat(), raw);
    }
}
