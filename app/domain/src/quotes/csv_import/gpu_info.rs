//! A tolerant reader for SkyPilot's `GpuInfo` cell: a Python `repr` of a dict (single quotes,
//! `True/False/None`, floats) or its JSON twin, e.g.
//! `{'Gpus': [{'Name': 'A100', 'Count': 8.0, 'MemoryInfo': {'SizeInMiB': 40960}}], 'TotalGpuMemoryInMiB': 327680}`.

use super::cells::parse_decimal;
use rust_decimal::Decimal;
use serde::Serialize;

/// Deepest nesting accepted (the real cells nest three levels).
const MAX_DEPTH: usize = 16;

/// One GPU entry of a `GpuInfo` cell; absent keys are `None`.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct GpuInfoEntry {
    /// `Name`, e.g. `A100`.
    pub name: Option<String>,
    /// `Manufacturer`, e.g. `NVIDIA`.
    pub manufacturer: Option<String>,
    /// `Count` (a float in the catalogs).
    pub count: Option<Decimal>,
    /// `MemoryInfo.SizeInMiB`: memory of one GPU.
    pub memory_mib: Option<Decimal>,
}

/// What a `GpuInfo` cell says.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct GpuInfo {
    /// The `Gpus` list.
    pub gpus: Vec<GpuInfoEntry>,
    /// `TotalGpuMemoryInMiB`.
    pub total_memory_mib: Option<Decimal>,
}

/// A `GpuInfo` cell that cannot be read; `offset` is the byte where reading failed.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct GpuInfoError {
    /// Byte offset of the problem in the cell.
    pub offset: usize,
}

impl GpuInfo {
    /// VRAM of one GPU in GiB: the first entry's `SizeInMiB` ÷ 1024, else the total ÷ the
    /// summed `Count`s. `None` when the cell does not say.
    pub fn memory_per_gpu_gib(&self) -> Option<Decimal> {
        let mib_per_gib = Decimal::from(1024);
        if let Some(mib) = self.gpus.iter().find_map(|g| g.memory_mib) {
            return mib.checked_div(mib_per_gib).map(|g| g.normalize());
        }
        let total = self.total_memory_mib?;
        let count = self
            .gpus
            .iter()
            .filter_map(|g| g.count)
            .try_fold(Decimal::ZERO, Decimal::checked_add)?;
        if count <= Decimal::ZERO {
            return None;
        }
        total
            .checked_div(count)?
            .checked_div(mib_per_gib)
            .map(|g| g.normalize())
    }
}

/// A parsed literal.
#[derive(Debug)]
enum Value {
    Dict(Vec<(String, Value)>),
    List(Vec<Value>),
    Str(String),
    Num(Decimal),
    Bool,
    Null,
}

impl Value {
    fn get(&self, key: &str) -> Option<&Value> {
        match self {
            Value::Dict(pairs) => pairs.iter().find(|(k, _)| k.eq_ignore_ascii_case(key)).map(|(_, v)| v),
            _ => None,
        }
    }

    fn num(&self) -> Option<Decimal> {
        match self {
            Value::Num(n) => Some(*n),
            _ => None,
        }
    }

    fn text(&self) -> Option<String> {
        match self {
            Value::Str(s) => Some(s.clone()),
            _ => None,
        }
    }
}

/// Reads a `GpuInfo` cell.
pub fn parse_gpu_info(text: &str) -> Result<GpuInfo, GpuInfoError> {
    let mut p = Parser { s: text, pos: 0 };
    let value = p.value(0)?;
    p.ws();
    if p.pos != text.len() {
        return Err(p.err());
    }
    let Value::Dict(_) = value else {
        return Err(GpuInfoError { offset: 0 });
    };
    let gpus = match value.get("Gpus") {
        Some(Value::List(items)) => items.iter().map(entry).collect(),
        _ => Vec::new(),
    };
    let total_memory_mib = value.get("TotalGpuMemoryInMiB").and_then(Value::num);
    Ok(GpuInfo { gpus, total_memory_mib })
}

fn entry(v: &Value) -> GpuInfoEntry {
    GpuInfoEntry {
        name: v.get("Name").and_then(Value::text),
        manufacturer: v.get("Manufacturer").and_then(Value::text),
        count: v.get("Count").and_then(Value::num),
        memory_mib: v
            .get("MemoryInfo")
            .and_then(|m| m.get("SizeInMiB"))
            .and_then(Value::num),
    }
}

struct Parser<'a> {
    s: &'a str,
    pos: usize,
}

impl Parser<'_> {
    fn err(&self) -> GpuInfoError {
        GpuInfoError { offset: self.pos }
    }

    fn peek(&self) -> Option<char> {
        self.s[self.pos..].chars().next()
    }

    fn ws(&mut self) {
        while let Some(c) = self.peek().filter(|c| c.is_whitespace()) {
            self.pos += c.len_utf8();
        }
    }

    fn eat(&mut self, c: char) -> bool {
        self.ws();
        let hit = self.peek() == Some(c);
        if hit {
            self.pos += c.len_utf8();
        }
        hit
    }

    fn value(&mut self, depth: usize) -> Result<Value, GpuInfoError> {
        if depth > MAX_DEPTH {
            return Err(self.err());
        }
        self.ws();
        match self.peek() {
            Some('{') => self.dict(depth),
            Some(open @ ('[' | '(')) => {
                let close = if open == '[' { ']' } else { ')' };
                self.pos += 1;
                self.list(depth, close)
            }
            Some(q @ ('\'' | '"')) => self.string(q).map(Value::Str),
            Some(c) if c.is_ascii_digit() || matches!(c, '-' | '+' | '.') => self.number(),
            Some(c) if c.is_ascii_alphabetic() => self.word(),
            _ => Err(self.err()),
        }
    }

    fn dict(&mut self, depth: usize) -> Result<Value, GpuInfoError> {
        self.pos += 1;
        let mut pairs = Vec::new();
        loop {
            if self.eat('}') {
                return Ok(Value::Dict(pairs));
            }
            self.ws();
            let key = match self.peek() {
                Some(q @ ('\'' | '"')) => self.string(q)?,
                _ => return Err(self.err()),
            };
            if !self.eat(':') {
                return Err(self.err());
            }
            pairs.push((key, self.value(depth + 1)?));
            if self.eat(',') {
                continue;
            }
            if self.eat('}') {
                return Ok(Value::Dict(pairs));
            }
            return Err(self.err());
        }
    }

    fn list(&mut self, depth: usize, close: char) -> Result<Value, GpuInfoError> {
        let mut items = Vec::new();
        loop {
            if self.eat(close) {
                return Ok(Value::List(items));
            }
            items.push(self.value(depth + 1)?);
            if self.eat(',') {
                continue;
            }
            if self.eat(close) {
                return Ok(Value::List(items));
            }
            return Err(self.err());
        }
    }

    fn string(&mut self, quote: char) -> Result<String, GpuInfoError> {
        self.pos += 1;
        let mut out = String::new();
        while let Some(c) = self.peek() {
            self.pos += c.len_utf8();
            match c {
                _ if c == quote => return Ok(out),
                '\\' => {
                    let e = self.peek().ok_or_else(|| self.err())?;
                    self.pos += e.len_utf8();
                    out.push(match e {
                        'n' => '\n',
                        't' => '\t',
                        'r' => '\r',
                        'u' => self.unicode_escape()?,
                        other => other,
                    });
                }
                _ => out.push(c),
            }
        }
        Err(self.err())
    }

    fn unicode_escape(&mut self) -> Result<char, GpuInfoError> {
        let hex = self.s.get(self.pos..self.pos + 4).ok_or_else(|| self.err())?;
        let code = u32::from_str_radix(hex, 16).map_err(|_| self.err())?;
        let c = char::from_u32(code).ok_or_else(|| self.err())?;
        self.pos += 4;
        Ok(c)
    }

    fn number(&mut self) -> Result<Value, GpuInfoError> {
        let start = self.pos;
        let len = self.s[start..]
            .find(|c: char| !(c.is_ascii_alphanumeric() || matches!(c, '-' | '+' | '.')))
            .unwrap_or(self.s.len() - start);
        self.pos += len;
        let text = &self.s[start..self.pos];
        parse_decimal(text)
            .map(Value::Num)
            .ok_or(GpuInfoError { offset: start })
    }

    fn word(&mut self) -> Result<Value, GpuInfoError> {
        let start = self.pos;
        let len = self.s[start..]
            .find(|c: char| !c.is_ascii_alphanumeric())
            .unwrap_or(self.s.len() - start);
        self.pos += len;
        match &self.s[start..self.pos] {
            "True" | "true" | "False" | "false" => Ok(Value::Bool),
            "None" | "null" | "nan" | "NaN" => Ok(Value::Null),
            _ => Err(GpuInfoError { offset: start }),
        }
    }
}
