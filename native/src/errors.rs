//! Error codes shared by every module. Kept free of N-API types so the direct
//! benchmark can include the crypto modules without the binding.

/// A failure with a stable machine-readable code (mirrored by `LiboqsError.code` in JS).
#[derive(Debug)]
pub struct Fail {
    pub code: &'static str,
    pub msg: String,
}

pub type Res<T> = Result<T, Fail>;

pub fn fail<T>(code: &'static str, msg: impl Into<String>) -> Res<T> {
    Err(Fail {
        code,
        msg: msg.into(),
    })
}

pub const ERR_INVALID_SEED: &str = "ERR_INVALID_SEED";
pub const ERR_INVALID_KEY_LENGTH: &str = "ERR_INVALID_KEY_LENGTH";
/// Right length, but not a key: an ECDSA d outside [1, n − 1], a point not on the curve.
pub const ERR_INVALID_KEY: &str = "ERR_INVALID_KEY";
pub const ERR_INVALID_ARGUMENT: &str = "ERR_INVALID_ARGUMENT";
pub const ERR_INVALID_SIGNATURE_LENGTH: &str = "ERR_INVALID_SIGNATURE_LENGTH";
pub const ERR_CONTEXT_TOO_LONG: &str = "ERR_CONTEXT_TOO_LONG";
pub const ERR_INVALID_RND: &str = "ERR_INVALID_RND";
pub const ERR_KEY_FREED: &str = "ERR_KEY_FREED";
pub const ERR_KEY_ALGORITHM_MISMATCH: &str = "ERR_KEY_ALGORITHM_MISMATCH";
pub const ERR_UNSUPPORTED: &str = "ERR_UNSUPPORTED";
pub const ERR_INVALID_ALGORITHM: &str = "ERR_INVALID_ALGORITHM";
pub const ERR_RNG: &str = "ERR_RNG";
pub const ERR_INTERNAL: &str = "ERR_INTERNAL";
