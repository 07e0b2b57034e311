//! Password hashing with argon2id at OWASP's parameters (m = 19 MiB, t = 2, p = 1), on the
//! blocking thread pool, with a cap on hashes running at once.

use crate::error::AppError;
use argon2::{
    Algorithm, Argon2, Params, PasswordHash, PasswordHasher, PasswordVerifier, Version, password_hash::SaltString,
};
use rand::RngCore;
use std::sync::LazyLock;
use tokio::sync::Semaphore;

/// argon2id memory cost in KiB (19 MiB).
pub const MEMORY_KIB: u32 = 19 * 1024;
/// argon2id iterations.
pub const ITERATIONS: u32 = 2;
/// argon2id parallelism.
pub const PARALLELISM: u32 = 1;

/// At most one hash per core at a time: the rest queue instead of exhausting memory and CPU.
static PERMITS: LazyLock<Semaphore> =
    LazyLock::new(|| Semaphore::new(std::thread::available_parallelism().map_or(2, std::num::NonZero::get)));

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

async fn run_blocking<T: Send + 'static>(f: impl FnOnce() -> T + Send + 'static) -> Result<T, AppError> {
    let _permit = PERMITS.acquire().await.map_err(|_| AppError::Internal)?;
    tokio::task::spawn_blocking(f).await.map_err(|e| {
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
