//! Bounded, downsampled telemetry series for one GPU.
//!
//! Holds at most `cap` buckets. When full, adjacent buckets are merged in
//! pairs and the bucket size doubles, so memory stays bounded however long
//! the input is, and buckets stay equal-sized (except the last).

use super::canonical::TelemetrySample;
use super::vocab::ThrottleReason;

/// One raw telemetry row for one GPU.
#[derive(Debug, Clone, Copy, Default)]
pub(crate) struct Point {
    /// Seconds since the first row of the file.
    pub t: f64,
    pub util: Option<f64>,
    pub mem: Option<f64>,
    pub clock: Option<f64>,
    pub temp: Option<f64>,
    pub power: Option<f64>,
    /// Active throttle reasons (NVML bits).
    pub mask: u16,
    /// Whether the row said whether each throttle reason was active (not N/A).
    pub read_reasons: bool,
}

/// Running mean.
#[derive(Debug, Clone, Copy, Default)]
struct Mean {
    sum: f64,
    n: u64,
}

impl Mean {
    fn add(&mut self, v: Option<f64>) {
        if let Some(v) = v {
            self.sum += v;
            self.n += 1;
        }
    }
    fn merge(&mut self, o: Self) {
        self.sum += o.sum;
        self.n += o.n;
    }
    fn get(self) -> Option<f64> {
        (self.n > 0).then(|| self.sum / self.n as f64)
    }
}

fn max_opt(a: Option<f64>, b: Option<f64>) -> Option<f64> {
    match (a, b) {
        (Some(x), Some(y)) => Some(x.max(y)),
        (x, y) => x.or(y),
    }
}

#[derive(Debug, Clone, Copy)]
struct Bucket {
    t: f64,
    n: u64,
    util: Mean,
    clock: Mean,
    power: Mean,
    mem: Option<f64>,
    temp: Option<f64>,
    mask: u16,
}

impl Bucket {
    fn new(p: &Point) -> Self {
        let mut b = Self {
            t: p.t,
            n: 0,
            util: Mean::default(),
            clock: Mean::default(),
            power: Mean::default(),
            mem: None,
            temp: None,
            mask: 0,
        };
        b.add(p);
        b
    }

    fn add(&mut self, p: &Point) {
        self.n += 1;
        self.util.add(p.util);
        self.clock.add(p.clock);
        self.power.add(p.power);
        self.mem = max_opt(self.mem, p.mem);
        self.temp = max_opt(self.temp, p.temp);
        self.mask |= p.mask;
    }

    fn merge(&mut self, o: &Self) {
        self.t = self.t.min(o.t);
        self.n += o.n;
        self.util.merge(o.util);
        self.clock.merge(o.clock);
        self.power.merge(o.power);
        self.mem = max_opt(self.mem, o.mem);
        self.temp = max_opt(self.temp, o.temp);
        self.mask |= o.mask;
    }
}

/// A bounded downsampled series.
#[derive(Debug, Clone)]
pub(crate) struct Series {
    buckets: Vec<Bucket>,
    per_bucket: u64,
    cap: usize,
}

impl Series {
    /// A series keeping at most `cap` (≥ 2) points.
    pub(crate) fn new(cap: usize) -> Self {
        Self {
            buckets: Vec::new(),
            per_bucket: 1,
            cap: cap.max(2),
        }
    }

    /// Adds one raw row.
    pub(crate) fn push(&mut self, p: &Point) {
        if let Some(last) = self.buckets.last_mut()
            && last.n < self.per_bucket
        {
            last.add(p);
            return;
        }
        if self.buckets.len() >= self.cap {
            self.compact();
            if let Some(last) = self.buckets.last_mut()
                && last.n < self.per_bucket
            {
                last.add(p);
                return;
            }
        }
        self.buckets.push(Bucket::new(p));
    }

    fn compact(&mut self) {
        let len = self.buckets.len();
        for i in 0..len / 2 {
            let mut merged = self.buckets[2 * i];
            merged.merge(&self.buckets[2 * i + 1]);
            self.buckets[i] = merged;
        }
        if len % 2 == 1 {
            self.buckets[len / 2] = self.buckets[len - 1];
        }
        self.buckets.truncate(len.div_ceil(2));
        self.per_bucket = self.per_bucket.saturating_mul(2);
    }

    /// Emits the samples, shifting every `t` by `-shift`.
    pub(crate) fn into_samples(self, gpu: u32, shift: f64) -> impl Iterator<Item = TelemetrySample> {
        self.buckets.into_iter().map(move |b| TelemetrySample {
            t: b.t - shift,
            gpu,
            util_pct: b.util.get(),
            mem_used_mib: b.mem,
            sm_clock_mhz: b.clock.get(),
            temp_c: b.temp,
            power_w: b.power.get(),
            throttle_reasons: ThrottleReason::from_mask(b.mask),
        })
    }
}
