//! Allocation-free parsing of nvidia-smi CSV values (`45 %`, `1234 MiB`,
//! `[N/A]`, `Active`, `Enabled`, `0x…`, timestamps).

/// Powers of ten exactly representable as f64.
const POW10: [f64; 23] = [
    1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20,
    1e21, 1e22,
];

/// Parses a leading decimal number, ignoring a trailing unit (`"45 %"`).
/// Returns `None` for `[N/A]`, `N/A`, `[Not Supported]` and other text.
pub(crate) fn parse_num(field: &[u8]) -> Option<f64> {
    let field = field.trim_ascii();
    let (neg, digits) = match field.split_first() {
        Some((b'-', rest)) => (true, rest),
        _ => (false, field),
    };
    let mut mantissa: u64 = 0;
    let (mut n_digits, mut frac_digits, mut seen_dot) = (0usize, 0usize, false);
    let mut end = digits.len();
    for (i, &b) in digits.iter().enumerate() {
        match b {
            b'0'..=b'9' => {
                mantissa = mantissa.wrapping_mul(10).wrapping_add(u64::from(b - b'0'));
                n_digits += 1;
                frac_digits += usize::from(seen_dot);
            }
            b'.' if !seen_dot => seen_dot = true,
            _ => {
                end = i;
                break;
            }
        }
    }
    if n_digits == 0 {
        return None;
    }
    match digits.get(end) {
        None | Some(b' ' | b'%') => {}
        Some(b'e' | b'E')
            if digits
                .get(end + 1)
                .is_some_and(|c| c.is_ascii_digit() || *c == b'-' || *c == b'+') =>
        {
            return slow_parse(field);
        }
        Some(c) if c.is_ascii_alphabetic() => {}
        Some(_) => return None,
    }
    if n_digits > 15 || frac_digits >= POW10.len() {
        return slow_parse(&field[..end + usize::from(neg)]);
    }
    // Exact: mantissa < 10^15 < 2^53 and the power of ten is exact, so the
    // single division is correctly rounded.
    let v = mantissa as f64 / POW10[frac_digits];
    Some(if neg { -v } else { v })
}

fn slow_parse(field: &[u8]) -> Option<f64> {
    let token = field.split(|&b| b == b' ').next()?;
    std::str::from_utf8(token)
        .ok()?
        .parse::<f64>()
        .ok()
        .filter(|v| v.is_finite())
}

/// A number of one nvidia-smi field as text, its unit ignored (`45 %`, `40960 MiB`, `1980`);
/// `None` for `[N/A]` and other text ([`parse_num`]).
#[must_use]
pub fn smi_number(field: &str) -> Option<f64> {
    parse_num(field.as_bytes())
}

/// The clock event reasons bit mask of one nvidia-smi field as text (`0x0000000000000004`;
/// [`parse_hex`]).
#[must_use]
pub fn smi_mask(field: &str) -> Option<u64> {
    parse_hex(field.as_bytes())
}

/// Parses a small non-negative integer (GPU index).
pub(crate) fn parse_u32(field: &[u8]) -> Option<u32> {
    let field = field.trim_ascii();
    if field.is_empty() || field.len() > 9 {
        return None;
    }
    field.iter().try_fold(0u32, |acc, &b| {
        b.is_ascii_digit().then(|| acc * 10 + u32::from(b - b'0'))
    })
}

/// Parses a `0x…` hexadecimal bit mask.
pub(crate) fn parse_hex(field: &[u8]) -> Option<u64> {
    let digits = field.trim_ascii().strip_prefix(b"0x")?;
    if digits.is_empty() || digits.len() > 16 {
        return None;
    }
    digits.iter().try_fold(0u64, |acc, &b| {
        let d = match b {
            b'0'..=b'9' => b - b'0',
            b'a'..=b'f' => b - b'a' + 10,
            b'A'..=b'F' => b - b'A' + 10,
            _ => return None,
        };
        Some(acc << 4 | u64::from(d))
    })
}

/// `Active` → true, `Not Active` → false, anything else → `None`.
pub(crate) fn parse_active(field: &[u8]) -> Option<bool> {
    let f = field.trim_ascii();
    // nvidia-smi writes `Active`/`Not Active`; amd-smi `TRUE`/`FALSE` (or `ACTIVE`/`NOT ACTIVE`)
    // for a violation status and `THROTTLED`/`UNTHROTTLED` for `throttle_status`.
    let yes: [&[u8]; 3] = [b"Active", b"True", b"Throttled"];
    let no: [&[u8]; 3] = [b"Not Active", b"False", b"Unthrottled"];
    if yes.iter().any(|w| f.eq_ignore_ascii_case(w)) {
        Some(true)
    } else if no.iter().any(|w| f.eq_ignore_ascii_case(w)) {
        Some(false)
    } else {
        None
    }
}

/// `Enabled` → true, `Disabled` → false, anything else → `None`.
pub(crate) fn parse_enabled(field: &[u8]) -> Option<bool> {
    let f = field.trim_ascii();
    if f.eq_ignore_ascii_case(b"Enabled") {
        Some(true)
    } else if f.eq_ignore_ascii_case(b"Disabled") {
        Some(false)
    } else {
        None
    }
}

/// Parses `YYYY/MM/DD HH:MM:SS[.fff]` (also `-` date separators and `T`)
/// into seconds since 1970-01-01 (time zone ignored: only differences matter).
pub(crate) fn parse_timestamp(field: &[u8]) -> Option<f64> {
    let f = field.trim_ascii();
    if let Some(epoch) = epoch_seconds(f) {
        return Some(epoch);
    }
    if f.len() < 19 {
        return None;
    }
    let num = |a: usize, b: usize| -> Option<i64> {
        f.get(a..b)?.iter().try_fold(0i64, |acc, &c| {
            c.is_ascii_digit().then(|| acc * 10 + i64::from(c - b'0'))
        })
    };
    let seps_ok =
        matches!(f[4], b'/' | b'-') && f[7] == f[4] && matches!(f[10], b' ' | b'T') && f[13] == b':' && f[16] == b':';
    if !seps_ok {
        return None;
    }
    let (year, month, day) = (num(0, 4)?, num(5, 7)?, num(8, 10)?);
    let (hour, minute, second) = (num(11, 13)?, num(14, 16)?, num(17, 19)?);
    if !(1..=12).contains(&month) || !(1..=31).contains(&day) || hour > 23 || minute > 59 || second > 60 {
        return None;
    }
    let frac = match f.get(19) {
        Some(b'.') => {
            let digits = &f[20..];
            let n = digits.iter().take_while(|c| c.is_ascii_digit()).count().min(9);
            if n == 0 {
                return None;
            }
            num(20, 20 + n)? as f64 / POW10[n]
        }
        _ => 0.0,
    };
    let secs = days_from_civil(year, month, day) * 86_400 + hour * 3_600 + minute * 60 + second;
    Some(secs as f64 + frac)
}

/// Unix seconds as amd-smi's `--watch` writes them (`1760436751`): 9 to 11 digits (2001 to
/// 5138), optionally with a fraction.
fn epoch_seconds(f: &[u8]) -> Option<f64> {
    let whole = f.iter().take_while(|c| c.is_ascii_digit()).count();
    let rest = &f[whole..];
    let fraction_ok =
        rest.is_empty() || (rest[0] == b'.' && rest.len() > 1 && rest[1..].iter().all(u8::is_ascii_digit));
    if !(9..=11).contains(&whole) || !fraction_ok {
        return None;
    }
    std::str::from_utf8(f).ok()?.parse().ok()
}

/// Days since 1970-01-01 of a proleptic Gregorian date (H. Hinnant's algorithm).
fn days_from_civil(y: i64, m: i64, d: i64) -> i64 {
    let y = if m <= 2 { y - 1 } else { y };
    let era = y.div_euclid(400);
    let yoe = y - era * 400;
    let mp = (m + 9) % 12;
    let doy = (153 * mp + 2) / 5 + d - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    era * 146_097 + doe - 719_468
}
