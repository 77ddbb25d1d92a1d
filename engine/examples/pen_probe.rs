use strata_engine::format::project::Project;
use strata_engine::physics::body::drop::place_bodies;
use strata_engine::physics::body::{DropSettings, ShapeChoice, SimSettings, Simulation};
use strata_engine::physics::{PhysicsWorld, DEFAULT_CACHE_BYTES};

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let file = &args[1];
    let seed: u64 = args[2].parse().expect("pen_probe: bad argument or file");
    let watch: usize = args[3].parse().expect("pen_probe: bad argument or file");
    let p = Project::load(std::path::Path::new(file)).expect("pen_probe: bad argument or file");
    let table = &p.header.materials;
    let mut world = PhysicsWorld::new(&p.grid, table, DEFAULT_CACHE_BYTES);
    let count: usize = args
        .get(4)
        .map_or(60, |a| a.parse().expect("pen_probe: bad argument or file"));
    let shape = ShapeChoice::from_name(args.get(5).map_or("mixed", |s| s.as_str()))
        .expect("pen_probe: bad argument or file");
    let secs: f32 = args.get(6).map_or(10.0, |a| {
        a.parse().expect("pen_probe: bad argument or file")
    });
    let s = DropSettings {
        count,
        seed,
        shape,
        seconds: secs,
        ..DropSettings::default()
    };
    let bodies = place_bodies(&mut world, &p.grid, &s).expect("pen_probe: bad argument or file");
    let mut sim = Simulation::new(
        table,
        SimSettings {
            max_bodies: 100000,
            ..SimSettings::default()
        },
    );
    sim.add_all(&bodies)
        .expect("pen_probe: bad argument or file");
    let size = sim.bodies()[watch].shape.size();
    let mut worst = 0.0f32;
    let mut prev = sim.bodies()[watch];
    let mut prev_contacts = Vec::new();
    for step in 0..(secs * 120.0) as usize {
        let before = sim.bodies()[watch];
        let mut cps = Vec::new();
        sim.contact_points(&mut world, &p.grid, 0.1, &mut cps)
            .expect("pen_probe: bad argument or file");
        cps.retain(|c| c.body == watch || c.other == Some(watch));
        if std::env::var("AT")
            .ok()
            .and_then(|v| v.parse::<usize>().ok())
            == Some(step)
        {
            for &k in &[2usize, 10, watch] {
                println!(
                    "AT{step} body {k}: {:?} state {:?}",
                    sim.bodies()[k],
                    sim.state(k)
                );
            }
            let mut mini = Simulation::new(table, SimSettings::default());
            let trio: Vec<_> = sim.bodies().to_vec();
            mini.add_all(&trio)
                .expect("pen_probe: bad argument or file");

            // restore velocities (add_all keeps them)

            mini.step(&mut world, &p.grid)
                .expect("pen_probe: bad argument or file");

            for k in [2usize, 10, watch] {
                println!(
                    "MINI {k}: v {:?} w {:?}",
                    mini.bodies()[k].velocity,
                    mini.bodies()[k].angular_velocity
                );
            }
        }
        let st = sim
            .step(&mut world, &p.grid)
            .expect("pen_probe: bad argument or file");
        let pen = sim.stats()[watch].max_penetration;
        if pen > worst + 0.005 * size {
            worst = pen;
            println!(
                "step {step} substeps {} maxpen {:.4} ({:.1}%) pen-last {:.4}",
                st.substeps,
                pen,
                100.0 * pen / size,
                sim.stats()[watch].penetration
            );
            println!("  prev {:?}", prev);
            for c in &prev_contacts {
                println!("  PREV-CP {c:?}");
            }
            println!("  before {:?}", before);
            if 100.0 * pen / size > 4.0 {
                let mut pts = Vec::new();
                sim.contact_points(&mut world, &p.grid, 0.05, &mut pts)
                    .expect("pen_probe: bad argument or file");
                for c in pts
                    .iter()
                    .filter(|c| c.body == watch || c.other == Some(watch))
                {
                    println!("  CP {c:?}");
                }
                probe(&mut world, &p.grid, &before);
                println!(" after:");
                let a = sim.bodies()[watch];
                probe(&mut world, &p.grid, &a);
            }
            println!("  after  {:?}", sim.bodies()[watch]);
        }
        prev = before;
        prev_contacts = cps;
    }
}

#[allow(dead_code)]
pub fn probe(
    world: &mut PhysicsWorld,
    grid: &strata_engine::storage::Grid,
    b: &strata_engine::physics::body::Body,
) {
    use strata_engine::physics::body::shape::box_corners;
    use strata_engine::physics::body::terrain::body_triangle;
    use strata_engine::physics::RayFilter;
    let (lo, hi) = b.aabb();
    let mut tris = Vec::new();
    world
        .solid_triangles_in(grid, lo.map(|c| c - 0.05), hi.map(|c| c + 0.05), &mut tris)
        .expect("pen_probe: bad argument or file");
    for t in &tris {
        let mut out = Vec::new();
        if let strata_engine::physics::body::Shape::Box { half } = b.shape {
            let g = strata_engine::physics::body::sat::BoxGeom {
                center: b.position,
                axes: strata_engine::physics::body::math::axes(b.orientation),
                half,
            };
            let mut raw = Vec::new();
            strata_engine::physics::body::sat::box_contacts(
                &g,
                &strata_engine::physics::body::sat::Other::Triangle(*t),
                0.05,
                &mut raw,
            );
            let nf = strata_engine::physics::body::math::normalize(
                strata_engine::physics::body::math::cross(
                    strata_engine::physics::body::math::sub(t[1], t[0]),
                    strata_engine::physics::body::math::sub(t[2], t[0]),
                ),
            )
            .unwrap_or([0.0; 3]);
            for c in &raw {
                if c.separation < -0.02 {
                    println!(
                        "  RAW tri {:?} nf {:?} -> sep {:.4} n {:?} pa {:?}",
                        t, nf, c.separation, c.normal, c.point_a
                    );
                }
            }
        }
        body_triangle(b, *t, 0.05, &mut out);
        for c in &out {
            if c.separation < -0.02 {
                println!(
                    "  tri {:?} -> sep {:.4} n {:?} pa {:?}",
                    t, c.separation, c.normal, c.point_a
                );
            }
        }
    }
    if let strata_engine::physics::body::Shape::Box { half } = b.shape {
        for c in box_corners(b.position, b.orientation, half) {
            let hit = world
                .raycast_with(
                    grid,
                    c,
                    [0.0, 1.0, 0.0],
                    5.0,
                    RayFilter {
                        solid: true,
                        water: false,
                    },
                )
                .expect("pen_probe: bad argument or file");
            println!("  corner {:?} up-hit {:?}", c, hit.map(|h| (h.t, h.normal)));
        }
    }
}
