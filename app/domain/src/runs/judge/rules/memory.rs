//! The memory rules of the validity gate: whether the run's memory is a reservation, and
//! whether its VRAM peak leaves the headroom the buying guide asks for on the quoted node.

use super::*;

impl Judging<'_> {
    /// Rules "memory is a reservation" (info) and "VRAM peak × (1 + headroom) > usable" (warn),
    /// by [`crate::vram`]. Beneath a reservation the peak judged is the workload's need:
    /// the one the run measured, else the workload's stated peak, else none (not judged). Returns
    /// the VRAM peak inside the window, when the result was placed.
    pub(in crate::runs::judge) fn vram_headroom(&mut self) -> Option<f64> {
        let window_peak = self.window.and_then(|_| {
            self.samples
                .iter()
                .filter_map(|s| s.mem_used_mib)
                .filter(|m| m.is_finite())
                .reduce(f64::max)
        });
        let observed_peak = window_peak.or(self.run.vram_peak_mib)?;
        let (peak_mib, basis) = match self.reservation() {
            Some(source) => {
                let need = self.need();
                let memory = self.memory_of_one();
                self.push(
                    Severity::Info,
                    Reason::VramReserved {
                        reserved_mib: observed_peak,
                        share: memory.map(|c| observed_peak / c),
                        slice: self.on_a_slice(),
                        source,
                        need_mib: need.map(|(m, _)| m),
                        basis: need.map(|(_, b)| b),
                    },
                );
                match need {
                    Some((m, b)) => (m, Some(b)),
                    None => return window_peak,
                }
            }
            None => (observed_peak, None),
        };
        self.headroom_of(peak_mib, basis);
        window_peak
    }

    /// Who says the run's memory is a reservation, if anyone: the run (its format, the engineer
    /// or the probe), else its telemetry.
    pub(super) fn reservation(&self) -> Option<ReserveSource> {
        if self.run.vram_reserved == Some(true) {
            return Some(ReserveSource::Stated);
        }
        let memory = self.memory_of_one()?;
        reserve::seen_in(&self.samples, memory, &self.ctx.thresholds).then_some(ReserveSource::Telemetry)
    }

    /// The memory of one GPU or slice the run's memory is a share of, MiB: a MIG instance's or a
    /// fractional share's own (the quoted usable memory; nvidia-smi reports the parent card's
    /// total), else the card's.
    pub(super) fn memory_of_one(&self) -> Option<f64> {
        if self.on_a_slice() {
            return self
                .usable_mib()
                .and_then(|m| f64::try_from(m).ok())
                .filter(|m| *m > 0.0);
        }
        self.run.node.vram_total_mib.filter(|m| *m > 0.0)
    }

    /// Whether the run is on a MIG instance or a fractional share of a card.
    pub(super) fn on_a_slice(&self) -> bool {
        self.run.node.mig == Some(true)
            || self
                .ctx
                .quote
                .as_ref()
                .and_then(|q| q.slicing)
                .is_some_and(|s| !Slicing::reports_own_memory(s))
    }

    /// The workload's need beneath a reservation, MiB, and where it comes from.
    pub(super) fn need(&self) -> Option<(f64, NeedBasis)> {
        let measured = self.run.vram_needed_mib.filter(|m| m.is_finite() && *m > 0.0);
        let stated = self
            .ctx
            .workload_peak_mib
            .filter(|m| *m > Decimal::ZERO)
            .and_then(|m| f64::try_from(m).ok());
        measured
            .map(|m| (m, NeedBasis::Measured))
            .or(stated.map(|m| (m, NeedBasis::WorkloadStated)))
    }

    /// What one GPU (or slice) offers, MiB: the quoted usable memory and the card's own
    /// observed `memory.total`, the smaller of the two when both are known (an A10 with ECC on
    /// has 23,028 MiB, not the 24,576 of its datasheet). A MIG instance or a fractional share
    /// sees the parent card's memory, which is not the offer's.
    pub(super) fn usable_mib(&self) -> Option<Decimal> {
        let quote = self.ctx.quote.as_ref();
        let quoted = quote.and_then(|q| q.vram_per_gpu_mib);
        let own_memory = quote.and_then(|q| q.slicing).is_none_or(Slicing::reports_own_memory);
        let observed = self
            .run
            .node
            .vram_total_mib
            .filter(|_| own_memory && self.run.node.mig != Some(true))
            .and_then(dec);
        // Physical bounds (1 KiB … 1 PiB per GPU) keep the exact arithmetic in range.
        let plausible = |m: &Decimal| *m >= Decimal::new(1, 3) && *m <= Decimal::from(1_000_000_000_000_i64);
        match (quoted.filter(plausible), observed.filter(plausible)) {
            (Some(q), Some(o)) => Some(q.min(o)),
            (q, o) => q.or(o),
        }
    }

    /// The headroom rule on `peak_mib` per GPU.
    pub(super) fn headroom_of(&mut self, peak_mib: f64, basis: Option<NeedBasis>) {
        let ctx = self.ctx;
        let plausible = |m: &Decimal| *m >= Decimal::new(1, 3) && *m <= Decimal::from(1_000_000_000_000_i64);
        match (dec(peak_mib).filter(plausible), self.usable_mib()) {
            (Some(p), Some(usable)) => {
                let h = vram::assess(p, ctx.headroom_pct, usable);
                if !h.fits {
                    self.push(
                        Severity::Warn,
                        Reason::VramHeadroomLow {
                            peak_mib,
                            basis,
                            usable_mib: f64::try_from(usable).unwrap_or(f64::NAN),
                            headroom_pct: ctx.headroom_pct,
                            required_mib: h.required.round_dp(3),
                            actual_pct: h.actual_pct,
                        },
                    );
                }
            }
            (Some(_), None) if self.run.node.mig == Some(true) => self.push(Severity::Info, Reason::VramUsableUnknown),
            _ => {}
        }
    }
}
