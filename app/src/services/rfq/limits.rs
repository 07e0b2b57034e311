//! The vendor pages' request limits ([`crate::domain::rfq::limits`]), one set per server: the
//! router makes it and gives it to every page and server function as context.

use crate::{
    domain::{
        rfq::{
            self,
            limits::{Counter, PER_ADDRESS, PER_LINK},
        },
        throttle::address_key,
    },
    error::AppError,
};
use std::sync::{Arc, Mutex};

/// The counters of this server: by link (its hash) and by client address.
#[derive(Clone, Debug, Default)]
pub struct BidLimits(Arc<Mutex<(Counter, Counter)>>);

impl BidLimits {
    /// Counts one request through `link` from `address` (when the server knows it) at `now`.
    ///
    /// # Errors
    /// [`AppError::BidsTooFast`] with the seconds to wait when either is used up.
    pub fn hit(&self, link: &str, address: Option<std::net::IpAddr>, now: i64) -> Result<(), AppError> {
        let mut counters = self.0.lock().map_err(|_| AppError::Internal)?;
        let (links, addresses) = &mut *counters;
        if let Some(ip) = address {
            addresses
                .hit(&address_key(ip), now, PER_ADDRESS)
                .map_err(AppError::BidsTooFast)?;
        }
        // By the link's hash: the links themselves are not kept, not even in memory.
        links
            .hit(&rfq::link_hash(link), now, PER_LINK)
            .map_err(AppError::BidsTooFast)
    }
}

/// Counts the request being served against the server's limits (none outside a server, as in
/// unit tests).
///
/// # Errors
/// As [`BidLimits::hit`].
pub fn count_request(link: &str, now: i64) -> Result<(), AppError> {
    match leptos::prelude::use_context::<BidLimits>() {
        Some(limits) => limits.hit(link, crate::auth::throttle::client_addr(), now),
        None => Ok(()),
    }
}
