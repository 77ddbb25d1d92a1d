# Imports a Strata glTF scene into Blender (headless), prints what Blender made of it (objects by
# kind, LOD and collision names, materials, colour attributes) and, with an output path, renders the
# LOD0 tiles from above at an angle with Cycles on the CPU.
#   blender -b --factory-startup --python tools/blender-scene.py -- SCENE.glb [OUT.png]
import sys

import numpy

if not hasattr(numpy, "bool"):
    numpy.bool = bool  # Blender 3.4's importer still uses the alias newer numpy removed

import bpy
from mathutils import Vector

args = sys.argv[sys.argv.index("--") + 1:]
path = args[0]
out = args[1] if len(args) > 1 else None
for o in list(bpy.data.objects):
    bpy.data.objects.remove(o)
bpy.ops.import_scene.gltf(filepath=path)
objs = bpy.data.objects
meshes = [o for o in objs if o.type == "MESH"]
empties = [o for o in objs if o.type == "EMPTY"]
lods = {}
for o in meshes:
    if "_LOD" in o.name:
        lods.setdefault(o.name.rsplit("_LOD", 1)[1], []).append(o)
cols = [o for o in meshes if o.name.endswith("-col")]
print("objects:", len(objs), "meshes:", len(meshes), "empties:", len(empties))
print("tiles (empties):", sorted(o.name for o in empties)[:6], "...")
print("levels:", {k: len(v) for k, v in sorted(lods.items())}, "collision:", len(cols))
sample = meshes[0]
print("example:", sample.name, "parent:", sample.parent.name if sample.parent else None,
      "custom props:", {k: sample[k] for k in sample.keys() if not k.startswith("_")})
print("materials:", sorted(m.name for m in bpy.data.materials))
print("colour attributes:", [a.name for a in sample.data.color_attributes])
print("attributes:", [a.name for a in sample.data.attributes])
if out:
    lo = Vector((1e9, 1e9, 1e9))
    hi = Vector((-1e9, -1e9, -1e9))
    for o in meshes:
        keep = o.name.endswith("_LOD0")
        o.hide_render = not keep
        if keep:
            for c in o.bound_box:
                w = o.matrix_world @ Vector(c)
                lo = Vector(map(min, lo, w))
                hi = Vector(map(max, hi, w))
    centre = (lo + hi) / 2
    size = (hi - lo).length
    cam = bpy.data.objects.new("cam", bpy.data.cameras.new("cam"))
    bpy.context.scene.collection.objects.link(cam)
    cam.location = centre + Vector((0.55, -0.75, 0.6)) * size * 0.9
    cam.rotation_euler = (centre - cam.location).to_track_quat("-Z", "Y").to_euler()
    cam.data.clip_end = size * 10
    bpy.context.scene.camera = cam
    sun = bpy.data.objects.new("sun", bpy.data.lights.new("sun", "SUN"))
    sun.data.energy = 4.0
    sun.rotation_euler = (0.7, 0.2, 0.8)
    bpy.context.scene.collection.objects.link(sun)
    world = bpy.data.worlds.new("sky")
    world.use_nodes = True
    world.node_tree.nodes["Background"].inputs[0].default_value = (0.55, 0.7, 0.9, 1)
    world.node_tree.nodes["Background"].inputs[1].default_value = 0.6
    bpy.context.scene.world = world
    r = bpy.context.scene.render
    r.engine = "CYCLES"
    bpy.context.scene.cycles.device = "CPU"
    bpy.context.scene.cycles.samples = 24
    bpy.context.scene.cycles.use_denoising = False
    r.resolution_x, r.resolution_y = 800, 500
    r.filepath = out
    r.image_settings.file_format = "PNG"
    bpy.ops.render.render(write_still=True)
    print("rendered", out)
