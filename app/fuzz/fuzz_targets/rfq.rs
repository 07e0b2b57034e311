//! What a vendor's link and a stored bid are read with: `rfq::bid::BidRecord::decode` and
//! `rfq::needs::Needs::decode` on any text (`Ok` or an error, never a panic; a bid that reads
//! writes back to text that reads as the same bid, with the same receipt), and the link checks
//! (`well_formed`, `link_hash`) on any text.
#![no_main]

use libfuzzer_sys::fuzz_target;
use nodeledger_domain::rfq::{bid::BidRecord, link_hash, needs::Needs, well_formed};

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    if well_formed(text) {
        assert_eq!(link_hash(text).len(), 64);
    }
    if let Ok(needs) = Needs::decode(text) {
        assert_eq!(Needs::decode(&needs.encode()).expect("written needs read"), needs);
    }
    if let Ok(bid) = BidRecord::decode(text) {
        let written = bid.encode();
        let again = BidRecord::decode(&written).expect("a written bid reads");
        assert_eq!(again, bid);
        assert_eq!(again.receipt(), bid.receipt());
    }
});
