//! Probes of the running process for the frame-time report: CPU seconds used and peak resident
//! memory (Linux `/proc`; `None` elsewhere).

/// CPU seconds the process has used so far, all threads (Linux `/proc/self/stat`, 10 ms ticks;
/// `None` elsewhere): on a shared machine, the work done, without the waiting.
pub(super) fn process_cpu_s() -> Option<f64> {
    let stat = std::fs::read_to_string("/proc/self/stat").ok()?;
    let (_, rest) = stat.rsplit_once(')')?;
    let mut fields = rest.split_whitespace().skip(11);
    let user: f64 = fields.next()?.parse().ok()?;
    let system: f64 = fields.next()?.parse().ok()?;
    Some((user + system) / 100.0)
}

/// The process's peak resident memory in MiB (Linux; `None` elsewhere).
pub(super) fn peak_rss_mb() -> Option<f64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
    let kib: f64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kib / 1024.0)
}
