//! Command-line values that are the domain's own (a benchmark format, a quote file's layout, a
//! role): clap reads them by the names the domain gives them, so the command line cannot fall
//! out of step with what the app detects and stores. Each name is also accepted with `-` for
//! `_` (`vllm-legacy`), as the command line spelled them before.

use clap::builder::{PossibleValue, PossibleValuesParser, TypedValueParser};

/// The word that asks for detection instead of naming a format.
pub const AUTO: &str = "auto";
/// The word for a site administrator, who holds no team role.
pub const ADMIN: &str = "admin";

/// Parses one of `all` by its domain name.
pub fn named<T>(all: &'static [T], name: fn(T) -> &'static str) -> impl TypedValueParser<Value = T>
where
    T: Copy + Send + Sync + 'static,
{
    choices(all.iter().map(move |v| name(*v))).try_map(move |s: String| find(all, name, &s))
}

/// A domain value, or `None` for the word that stands for none of them ([`AUTO`]: detect;
/// [`ADMIN`]: no team role). Not an `Option`, which clap would read as "may be left out".
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Choice<T>(pub Option<T>);

/// Parses `word` or one of `all` by its domain name.
pub fn named_or<T>(
    word: &'static str,
    all: &'static [T],
    name: fn(T) -> &'static str,
) -> impl TypedValueParser<Value = Choice<T>>
where
    T: Copy + Send + Sync + 'static,
{
    let names = std::iter::once(word).chain(all.iter().map(move |v| name(*v)));
    choices(names).try_map(move |s: String| {
        if s == word {
            Ok(Choice(None))
        } else {
            find(all, name, &s).map(|v| Choice(Some(v)))
        }
    })
}

fn choices(names: impl Iterator<Item = &'static str>) -> PossibleValuesParser {
    PossibleValuesParser::new(names.map(|n| {
        let value = PossibleValue::new(n);
        if n.contains('_') {
            value.alias(n.replace('_', "-"))
        } else {
            value
        }
    }))
}

/// The value named `s`, by its name or its dashed alias (clap has already matched one of them).
fn find<T: Copy>(all: &[T], name: fn(T) -> &'static str, s: &str) -> Result<T, String> {
    let s = s.replace('-', "_");
    all.iter()
        .copied()
        .find(|v| name(*v) == s)
        .ok_or_else(|| format!("unknown value {s}"))
}

#[cfg(test)]
mod tests {
    use super::*;
    use app::domain::{roles::TeamRole, runs::Format};
    use clap::{Arg, Command};

    fn parse<T: Clone + Send + Sync + 'static>(
        parser: impl TypedValueParser<Value = T>,
        arg: &str,
    ) -> Result<T, String> {
        Command::new("t")
            .arg(Arg::new("v").long("v").value_parser(parser))
            .try_get_matches_from(["t", "--v", arg])
            .map(|m| m.get_one::<T>("v").cloned().expect("parsed"))
            .map_err(|e| e.to_string())
    }

    #[test]
    fn every_domain_format_is_a_command_line_value_by_its_own_name_and_with_dashes() {
        let formats = || named_or(AUTO, Format::ALL, Format::as_str);
        for &f in Format::ALL {
            assert_eq!(parse(formats(), f.as_str()), Ok(Choice(Some(f))));
            assert_eq!(parse(formats(), &f.as_str().replace('_', "-")), Ok(Choice(Some(f))));
        }
        assert_eq!(parse(formats(), "auto"), Ok(Choice(None)));
        let err = parse(formats(), "sglang-old").expect_err("unknown");
        assert!(err.contains("vllm_legacy"), "the error lists the names: {err}");
    }

    #[test]
    fn roles_are_read_by_their_stored_names() {
        let roles = || named_or(ADMIN, &TeamRole::ALL, TeamRole::as_str);
        for r in TeamRole::ALL {
            assert_eq!(parse(roles(), r.as_str()), Ok(Choice(Some(r))));
        }
        assert_eq!(parse(roles(), "admin"), Ok(Choice(None)));
        assert!(parse(roles(), "owner").is_err());
    }
}
