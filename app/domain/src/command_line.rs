//! The measured command as the team sees it: `nodeledger probe` records the command it ran, the
//! server stores it with the run's node facts and the run page shows it. Secret-looking arguments
//! are masked and a long line is cut with a visible mark, the same way on both sides (the probe
//! before it sends; the server again on what it receives, so an older probe's line is bounded too).
//!
//! Pure: text in, text out. The line is the command's arguments joined by spaces, and it is read
//! word by word on spaces, so a secret inside `sh -c "… --api-key sk-…"` is masked as well as one
//! given as its own argument.

/// What a masked value reads.
pub const MASK: &str = "***";
/// The end of a line that was cut.
pub const TRUNCATED: &str = " …[truncated]";
/// Longest line kept, characters: a longer one keeps its start and ends in [`TRUNCATED`]. It is
/// also the bound of every other text of the node facts (`node_facts::MAX_TEXT_CHARS`), so a cut
/// line is always accepted with them.
pub const MAX_CHARS: usize = 512;

/// Options whose value is a secret (`--api-key X` or `--api-key=X`; `_` read as `-`, any case).
const SECRET_OPTIONS: [&str; 5] = ["--api-key", "--token", "--password", "--secret", "--hf-token"];
/// `NAME=value` is masked when NAME ends in one of these (any case).
const SECRET_SUFFIXES: [&str; 4] = ["_KEY", "_TOKEN", "_SECRET", "_PASSWORD"];
/// Schemes of an `Authorization:` header kept in front of the masked credential.
const AUTH_SCHEMES: [&str; 4] = ["bearer", "basic", "token", "digest"];

/// What the word after the ones read so far is.
#[derive(Clone, Copy)]
enum Next {
    /// Any word.
    Plain,
    /// A secret value (after `--api-key`, or after an `Authorization:` scheme).
    Secret,
    /// After `Authorization:`: a scheme, or the credential itself.
    AuthScheme,
    /// Inside a quoted secret already masked: dropped up to its closing quote.
    InQuote(char),
}

/// `line` with every secret-looking value replaced by [`MASK`]: the value of `--api-key`,
/// `--token`, `--password`, `--secret`, `--hf-token` (also `--option=value`), the credential of
/// an `Authorization:` header (`-H "Authorization: Bearer …"`), and `NAME=value` where NAME ends
/// in `_KEY`, `_TOKEN`, `_SECRET` or `_PASSWORD`.
#[must_use]
pub fn mask(line: &str) -> String {
    let mut next = Next::Plain;
    let mut out: Vec<String> = Vec::new();
    for word in line.split(' ') {
        // Repeated spaces stay as they were and do not use up the value an option waits for.
        if word.is_empty() {
            out.push(String::new());
            continue;
        }
        let (shown, after) = mask_word(word, next);
        next = after;
        out.extend(shown);
    }
    out.join(" ")
}

/// `line` bounded to [`MAX_CHARS`]: a longer one keeps its start and ends in [`TRUNCATED`].
#[must_use]
pub fn truncate(line: &str) -> String {
    if line.chars().count() <= MAX_CHARS {
        return line.to_string();
    }
    let keep = MAX_CHARS - TRUNCATED.chars().count();
    let mut out: String = line.chars().take(keep).collect();
    out.push_str(TRUNCATED);
    out
}

/// The line as it is stored and shown: masked, then bounded.
#[must_use]
pub fn as_stored(line: &str) -> String {
    truncate(&mask(line))
}

/// One word read in state `next`: what is shown (nothing for the rest of a masked quoted value)
/// and what the following word is.
fn mask_word(word: &str, next: Next) -> (Option<String>, Next) {
    match next {
        Next::InQuote(q) => (None, if word.ends_with(q) { Next::Plain } else { next }),
        // A value that is itself an option means the secret option had none.
        Next::Secret if !word.starts_with("--") => secret(word, ""),
        Next::AuthScheme if is_scheme(word) => (Some(word.to_string()), Next::Secret),
        Next::AuthScheme => secret(word, ""),
        Next::Plain | Next::Secret => plain(word),
    }
}

fn plain(word: &str) -> (Option<String>, Next) {
    if is_secret_option(word) {
        return (Some(word.to_string()), Next::Secret);
    }
    let lower = word.to_ascii_lowercase();
    if let Some(at) = lower.find("authorization:") {
        let (name, rest) = word.split_at(at + "authorization:".len());
        return match rest {
            "" => (Some(word.to_string()), Next::AuthScheme),
            r if is_scheme(r) => (Some(word.to_string()), Next::Secret),
            r => secret(r, name),
        };
    }
    if let Some((name, value)) = word.split_once('=')
        && (is_secret_option(name) || is_secret_name(name))
    {
        return secret(value, &format!("{name}="));
    }
    (Some(word.to_string()), Next::Plain)
}

/// `prefix` then the masked `value`, its quotes kept; a quote opened and not closed in this word
/// drops the words up to its close.
fn secret(value: &str, prefix: &str) -> (Option<String>, Next) {
    let quote = |c: Option<char>| c.filter(|c| matches!(c, '"' | '\''));
    let open = quote(value.chars().next());
    let close = quote(value.chars().last()).filter(|_| value.chars().count() > 1 || open.is_none());
    match (open, close) {
        (Some(q), Some(c)) if q == c => (Some(format!("{prefix}{q}{MASK}{q}")), Next::Plain),
        (Some(q), _) => (Some(format!("{prefix}{q}{MASK}{q}")), Next::InQuote(q)),
        (None, Some(c)) => (Some(format!("{prefix}{MASK}{c}")), Next::Plain),
        (None, None) => (Some(format!("{prefix}{MASK}")), Next::Plain),
    }
}

fn is_secret_option(word: &str) -> bool {
    let word = word.trim_matches(['"', '\'']).replace('_', "-");
    SECRET_OPTIONS.iter().any(|o| word.eq_ignore_ascii_case(o))
}

/// An environment variable's name (letters, digits, `_`) ending in a secret suffix.
fn is_secret_name(name: &str) -> bool {
    let upper = name.trim_start_matches(['"', '\'']).to_ascii_uppercase();
    !upper.is_empty()
        && upper.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
        && SECRET_SUFFIXES.iter().any(|s| upper.ends_with(s))
}

fn is_scheme(word: &str) -> bool {
    let word = word.trim_matches(['"', '\'']);
    AUTH_SCHEMES.iter().any(|s| word.eq_ignore_ascii_case(s))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn vllm_s_api_key_is_masked_in_both_spellings() {
        assert_eq!(
            mask("vllm serve Qwen/Qwen2.5-7B-Instruct --api-key sk-abc --gpu-memory-utilization 0.9"),
            "vllm serve Qwen/Qwen2.5-7B-Instruct --api-key *** --gpu-memory-utilization 0.9"
        );
        assert_eq!(
            mask("vllm serve meta-llama/Llama-3.1-8B-Instruct --api-key=sk-abc --hf-token hf_XyZ --max-model-len 8192"),
            "vllm serve meta-llama/Llama-3.1-8B-Instruct --api-key=*** --hf-token *** --max-model-len 8192"
        );
    }

    #[test]
    fn sglang_s_api_key_is_masked() {
        assert_eq!(
            mask(
                "python -m sglang.launch_server --model-path Qwen/Qwen2.5-7B-Instruct --port 30000 --api-key sk-x --mem-fraction-static 0.85"
            ),
            "python -m sglang.launch_server --model-path Qwen/Qwen2.5-7B-Instruct --port 30000 --api-key *** --mem-fraction-static 0.85"
        );
    }

    #[test]
    fn token_password_and_secret_options_are_masked() {
        assert_eq!(
            mask("tool --token t1 --password=p1 --secret s1 --TOKEN T2 --hf_token=h1"),
            "tool --token *** --password=*** --secret *** --TOKEN *** --hf_token=***"
        );
    }

    #[test]
    fn secret_environment_assignments_are_masked_whatever_their_case() {
        assert_eq!(
            mask(
                "env HF_TOKEN=hf_abc OPENAI_API_KEY=sk-1 aws_secret=s db_password=p CUDA_VISIBLE_DEVICES=0,1 vllm serve m"
            ),
            "env HF_TOKEN=*** OPENAI_API_KEY=*** aws_secret=*** db_password=*** CUDA_VISIBLE_DEVICES=0,1 vllm serve m"
        );
        assert_eq!(
            mask("KEY=1 --max-tokens=128"),
            "KEY=1 --max-tokens=128",
            "not a secret name"
        );
    }

    #[test]
    fn an_authorization_header_keeps_its_scheme_and_loses_its_credential() {
        // Each argument joined by spaces, as the probe records `-H "Authorization: Bearer …"`.
        assert_eq!(
            mask("curl -s -H Authorization: Bearer sk-abc http://127.0.0.1:8000/v1/models"),
            "curl -s -H Authorization: Bearer *** http://127.0.0.1:8000/v1/models"
        );
        assert_eq!(
            mask("curl -H authorization:sk-abc -H Accept: application/json"),
            "curl -H authorization:*** -H Accept: application/json"
        );
        assert_eq!(
            mask("curl --header=Authorization: Basic dXNlcjpwYXNz x"),
            "curl --header=Authorization: Basic *** x"
        );
    }

    #[test]
    fn a_secret_inside_sh_c_is_masked_with_its_quotes() {
        assert_eq!(
            mask("sh -c HF_TOKEN='hf abc' vllm serve m --api-key \"sk-1 2\" --port 8000"),
            "sh -c HF_TOKEN='***' vllm serve m --api-key \"***\" --port 8000"
        );
        assert_eq!(
            mask("bash -c curl -H \"Authorization: Bearer sk-9\" x"),
            "bash -c curl -H \"Authorization: Bearer ***\" x"
        );
    }

    #[test]
    fn an_option_without_its_value_masks_nothing_after_it() {
        assert_eq!(mask("tool --token --model m"), "tool --token --model m");
        assert_eq!(mask("tool --api-key  sk-a"), "tool --api-key  ***", "two spaces");
        assert_eq!(mask("tool --api-key"), "tool --api-key");
    }

    #[test]
    fn masking_twice_changes_nothing() {
        let once = mask("vllm serve m --api-key sk HF_TOKEN=x -H Authorization: Bearer y");
        assert_eq!(mask(&once), once);
    }

    #[test]
    fn a_long_line_keeps_its_start_and_says_it_was_cut() {
        let short = "vllm serve m --port 8000";
        assert_eq!(truncate(short), short);
        let exact = "x".repeat(MAX_CHARS);
        assert_eq!(truncate(&exact), exact);
        let long = format!("vllm serve m {}", "--max-num-seqs 256 ".repeat(60));
        let cut = truncate(&long);
        assert_eq!(cut.chars().count(), MAX_CHARS);
        assert!(cut.ends_with(" …[truncated]"), "{cut}");
        assert!(long.starts_with(cut.trim_end_matches(TRUNCATED)));
        assert_eq!(truncate(&cut), cut, "a cut line is not cut again");
        let wide = "é".repeat(MAX_CHARS + 1);
        assert_eq!(
            truncate(&wide).chars().count(),
            MAX_CHARS,
            "cut on characters, not bytes"
        );
    }

    #[test]
    fn what_is_stored_is_masked_before_it_is_cut() {
        let line = format!("vllm serve m --api-key sk-abc {}", "--x 1 ".repeat(100));
        let stored = as_stored(&line);
        assert!(stored.starts_with("vllm serve m --api-key *** --x 1"), "{stored}");
        assert!(!stored.contains("sk-abc"));
        assert!(stored.ends_with(TRUNCATED));
    }
}
