//! Runs the engineer's command with its output passed through, in its own process group so that
//! the probe decides how it stops: it ends by itself (its exit code is kept), `--duration`
//! passes (SIGINT, as Ctrl-C would, then SIGTERM after 15 s, SIGKILL after 30 s), or the
//! engineer presses Ctrl-C (or the probe gets SIGTERM/SIGHUP): the command is stopped the same
//! way and the run counts as interrupted. It runs without `NODELEDGER_TOKEN` in its environment.

use nix::sys::signal::Signal;
use std::time::{Duration, Instant};
use tokio::process::{Child, Command};

/// How the command ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Ended {
    /// It ended by itself with this exit code (`128 + n` when killed by signal `n`).
    Exited(i32),
    /// `--duration` passed and the probe stopped it.
    StoppedAfterDuration,
    /// Ctrl-C, SIGTERM or SIGHUP: the probe stopped it.
    Interrupted,
}

/// Sends `signal` to the process group led by `pid` (a group already gone is fine).
pub fn signal_group(pid: u32, signal: Signal) {
    if let Ok(pid) = i32::try_from(pid) {
        let _ = nix::sys::signal::killpg(nix::unistd::Pid::from_raw(pid), signal);
    }
}

fn code_of(status: std::process::ExitStatus) -> i32 {
    use std::os::unix::process::ExitStatusExt;
    status.code().or_else(|| status.signal().map(|s| 128 + s)).unwrap_or(1)
}

/// Stops the command: SIGINT, SIGTERM after 15 s, SIGKILL after 30 s.
async fn stop(child: &mut Child) {
    let Some(pid) = child.id() else {
        return;
    };
    for (signal, wait) in [(Signal::SIGINT, 15), (Signal::SIGTERM, 15)] {
        signal_group(pid, signal);
        if tokio::time::timeout(Duration::from_secs(wait), child.wait())
            .await
            .is_ok()
        {
            return;
        }
    }
    signal_group(pid, Signal::SIGKILL);
    let _ = child.wait().await;
}

/// Waits for any of the signals that mean "stop" to the probe.
async fn interrupted() {
    use tokio::signal::unix::{SignalKind, signal};
    let (Ok(mut term), Ok(mut hup)) = (signal(SignalKind::terminate()), signal(SignalKind::hangup())) else {
        let _ = tokio::signal::ctrl_c().await;
        return;
    };
    tokio::select! {
        _ = tokio::signal::ctrl_c() => {}
        _ = term.recv() => {}
        _ = hup.recv() => {}
    }
}

/// Runs `argv` until it ends, `limit` passes or the probe is interrupted; `tick` is called every
/// second with the time since the start.
///
/// # Errors
/// When the command cannot be started (not found, not executable).
pub async fn run(argv: &[String], limit: Option<Duration>, mut tick: impl FnMut(Duration)) -> std::io::Result<Ended> {
    let (program, args) = argv
        .split_first()
        .ok_or_else(|| std::io::Error::other("no command given after --"))?;
    let started = Instant::now();
    // The command is measured, not trusted with the team's token.
    let mut child = Command::new(program)
        .args(args)
        .env_remove(super::TOKEN_ENV)
        .process_group(0)
        .spawn()?;
    let deadline = tokio::time::Instant::now() + limit.unwrap_or(Duration::from_secs(u64::from(u32::MAX)));
    let stop_signal = interrupted();
    tokio::pin!(stop_signal);
    let mut every_second = tokio::time::interval(Duration::from_secs(1));
    loop {
        tokio::select! {
            status = child.wait() => return Ok(Ended::Exited(code_of(status?))),
            () = tokio::time::sleep_until(deadline), if limit.is_some() => {
                stop(&mut child).await;
                return Ok(Ended::StoppedAfterDuration);
            }
            () = &mut stop_signal => {
                stop(&mut child).await;
                return Ok(Ended::Interrupted);
            }
            _ = every_second.tick() => tick(started.elapsed()),
        }
    }
}
