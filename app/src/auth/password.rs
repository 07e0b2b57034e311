//! Password hashing with argon2id at OWASP's parameters (m = 19 MiB, t = 2, p = 1), on the
//! blocking thread pool, with a cap on hashes running at once and a bounded queue behind it.
//!
//! Each hash takes 19 MiB and a core for tens of milliseconds, so a flood of sign-ins must not
//! queue without end (memory, and answers that never come): one hash per core runs, at most
//! [`QUEUE_PER_WORKER`] per core wait, and anyone beyond is refused at once with
//! [`AppError::Busy`] (503 with `Retry-After`) instead of waiting.

use crate::error::AppError;
use argon2::{
    Algorithm, Argon2, Params, PasswordHash, PasswordHasher, PasswordVerifier, Version, password_hash::SaltString,
};
use rand::RngCore;
use std::sync::{Arc, LazyLock};
use tokio::sync::Semaphore;

/// argon2id memory cost in KiB (19 MiB).
pub const MEMORY_KIB: u32 = 19 * 1024;
/// argon2id iterations.
pub const ITERATIONS: u32 = 2;
/// argon2id parallelism.
pub const PARALLELISM: u32 = 1;

/// Requests that may wait for a hash per core; past that the queue is full.
pub const QUEUE_PER_WORKER: usize = 8;
/// `Retry-After` of a refusal for a full queue, in seconds.
pub const BUSY_RETRY_SECS: u32 = 2;

/// Hashes that run at once: one per core.
fn workers() -> usize {
    std::thread::available_parallelism().map_or(2, std::num::NonZero::get)
}

/// Hashes running plus waiting before the next request is refused with [`AppError::Busy`].
pub fn capacity() -> usize {
    workers() * (1 + QUEUE_PER_WORKER)
}

/// One permit per hash that may run.
static RUNNING: LazyLock<Arc<Semaphore>> = LazyLock::new(|| Arc::new(Semaphore::new(workers())));
/// One permit per hash that may run or wait ([`capacity`]); taken without waiting.
static ADMITTED: LazyLock<Arc<Semaphore>> = LazyLock::new(|| Arc::new(Semaphore::new(capacity())));

/// A hash of a random password, verified against when the e-mail is unknown so that an
/// unknown e-mail costs the same time as a wrong password.
static DUMMY_HASH: LazyLock<String> = LazyLock::new(|| {
    let mut secret = [0u8; 32];
    rand::rng().fill_bytes(&mut secret);
    hash_blocking(&hex::encode(secret)).expect("hashing a random password cannot fail")
});

fn hasher() -> Argon2<'static> {
    let params = Params::new(MEMORY_KIB, ITERATIONS, PARALLELISM, None).expect("valid argon2 params");
    Argon2::new(Algorithm::Argon2id, Version::V0x13, params)
}

fn hash_blocking(password: &str) -> Result<String, argon2::password_hash::Error> {
    let mut salt = [0u8; 16];
    rand::rng().fill_bytes(&mut salt);
    let salt = SaltString::encode_b64(&salt)?;
    Ok(hasher().hash_password(password.as_bytes(), &salt)?.to_string())
}

fn verify_blocking(password: &str, phc: &str) -> bool {
    PasswordHash::new(phc).is_ok_and(|h| hasher().verify_password(password.as_bytes(), &h).is_ok())
}

/// Runs `f` on the blocking pool once a core is free, or refuses at once when the queue is
/// full. The permits move into the blocking task: a caller that goes away (the client hung up)
/// does not free its core before the hash is done.
async fn run_blocking<T: Send + 'static>(f: impl FnOnce() -> T + Send + 'static) -> Result<T, AppError> {
    let admitted = Arc::clone(&ADMITTED).try_acquire_owned().map_err(|_| {
        tracing::warn!(capacity = capacity(), "password hashing queue full; refusing");
        AppError::Busy(BUSY_RETRY_SECS)
    })?;
    let running = Arc::clone(&RUNNING)
        .acquire_owned()
        .await
        .map_err(|_| AppError::Internal)?;
    tokio::task::spawn_blocking(move || {
        let out = f();
        drop((running, admitted));
        out
    })
    .await
    .map_err(|e| {
        tracing::error!(error = %e, "password hashing task failed");
        AppError::Internal
    })
}

/// Hashes a password to a PHC string.
pub async fn hash(password: String) -> Result<String, AppError> {
    run_blocking(move || hash_blocking(&password)).await?.map_err(|e| {
        tracing::error!(error = %e, "password hashing failed");
        AppError::Internal
    })
}

/// Whether `password` matches the PHC string; with `None` (unknown user) it verifies against a
/// dummy hash and returns `false`, taking the same time.
pub async fn verify(password: String, phc: Option<String>) -> Result<bool, AppError> {
    run_blocking(move || match phc {
        Some(phc) => verify_blocking(&password, &phc),
        None => {
            verify_blocking(&password, &DUMMY_HASH);
            false
        }
    })
    .await
}

/// Computes the dummy hash ahead of the first sign-in (call at start-up).
pub async fn warm_up() -> Result<(), AppError> {
    run_blocking(|| LazyLock::force(&DUMMY_HASH).len()).await.map(|_| ())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn hashes_are_argon2id_with_owasp_parameters() {
        let phc = hash("correct horse battery".into()).await.unwrap();
        assert!(phc.starts_with("$argon2id$v=19$m=19456,t=2,p=1$"), "{phc}");
        assert!(verify("correct horse battery".into(), Some(phc.clone())).await.unwrap());
        assert!(!verify("wrong horse battery".into(), Some(phc.clone())).await.unwrap());
        assert!(!verify("anything".into(), None).await.unwrap());
        assert!(!verify("anything".into(), Some("not a phc".into())).await.unwrap());
        let again = hash("correct horse battery".into()).await.unwrap();
        assert_ne!(phc, again, "salted");
    }
}
