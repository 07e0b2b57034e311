//! Reading a file the user chose as UTF-8 text, in the browser (the quote and bill imports).
//! The bytes are checked here: `Blob.text()` would silently replace bad bytes, and a GBK export
//! would then import as mojibake.

/// Why the browser could not read the chosen file.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TextFileError {
    /// No file chosen (or the browser could not read it).
    NoFile,
    /// Larger than the page's limit.
    TooBig,
    /// Not UTF-8: the offset of the first bad byte.
    BadUtf8(usize),
}

/// A chosen file, read.
pub struct TextFile {
    /// The file's name as the browser gives it.
    pub name: String,
    pub text: String,
    /// Its size in bytes.
    pub size: usize,
}

/// Reads the first file chosen in `input`, at most `limit` bytes, as UTF-8 text.
#[cfg(feature = "hydrate")]
pub async fn read(input: web_sys::HtmlInputElement, limit: usize) -> Result<TextFile, TextFileError> {
    let file = input.files().and_then(|f| f.get(0)).ok_or(TextFileError::NoFile)?;
    let size = file.size() as usize;
    if size > limit {
        return Err(TextFileError::TooBig);
    }
    let buffer = wasm_bindgen_futures::JsFuture::from(file.array_buffer())
        .await
        .map_err(|_| TextFileError::NoFile)?;
    let bytes = js_sys::Uint8Array::new(&buffer).to_vec();
    let text = String::from_utf8(bytes).map_err(|e| TextFileError::BadUtf8(e.utf8_error().valid_up_to()))?;
    Ok(TextFile {
        name: file.name(),
        text,
        size,
    })
}
