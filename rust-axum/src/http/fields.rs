//! Reading a write body field by field, so that every invalid field gets its own `errors[]`
//! entry in the 422 (serde would stop at the first wrong type).

use rust_decimal::Decimal;
use serde::Deserialize;
use serde_json::{Map, Value};

use super::error::FieldError;

/// A request body that is a JSON object; unknown members are ignored. It is parsed as a whole
/// first, so that `[1, 2` is unparseable (400) rather than "not an object" (422).
#[derive(Debug, Deserialize)]
#[serde(try_from = "Value")]
pub struct JsonObject(Map<String, Value>);

impl TryFrom<Value> for JsonObject {
    type Error = &'static str;

    fn try_from(value: Value) -> Result<Self, Self::Error> {
        match value {
            Value::Object(members) => Ok(Self(members)),
            _ => Err("request body must be a JSON object"),
        }
    }
}

pub type Field<T> = Result<T, FieldError>;

impl JsonObject {
    /// A string that must be present, not blank, at most `max_chars` code points and free of U+0000.
    pub fn required_string(&mut self, field: &'static str, max_chars: usize) -> Field<String> {
        match self.0.remove(field) {
            None | Some(Value::Null) => Err(FieldError::new(field, "is required")),
            Some(Value::String(s)) if is_blank(&s) => {
                Err(FieldError::new(field, "must not be blank"))
            }
            Some(Value::String(s)) => checked_string(field, s, max_chars),
            Some(_) => Err(FieldError::new(field, "must be a string")),
        }
    }

    /// A string that may be absent or null (stored as NULL); blank is allowed.
    pub fn optional_string(
        &mut self,
        field: &'static str,
        max_chars: usize,
    ) -> Field<Option<String>> {
        match self.0.remove(field) {
            None | Some(Value::Null) => Ok(None),
            Some(Value::String(s)) => checked_string(field, s, max_chars).map(Some),
            Some(_) => Err(FieldError::new(field, "must be a string or null")),
        }
    }

    /// An amount of money for `numeric(10,2)`: 0 to 99999999.99, at most two decimals, judged on
    /// the number exactly as written (serde_json's `arbitrary_precision` keeps its text).
    pub fn price(&mut self, field: &'static str) -> Field<Decimal> {
        let max = Decimal::new(9_999_999_999, 2);
        let number = match self.0.remove(field) {
            Some(Value::Number(number)) => number,
            None | Some(Value::Null) => return Err(FieldError::new(field, "is required")),
            Some(_) => return Err(FieldError::new(field, "must be a number")),
        };
        let text = number.as_str();
        let parsed = if text.contains(['e', 'E']) {
            Decimal::from_scientific(text)
        } else {
            Decimal::from_str_exact(text)
        };
        match parsed {
            Ok(value) if value.is_sign_negative() && !value.is_zero() => {
                Err(FieldError::new(field, "must not be below 0"))
            }
            Ok(value) if value > max => {
                Err(FieldError::new(field, "must not be above 99999999.99"))
            }
            Ok(value) if value.normalize().scale() > 2 => {
                Err(FieldError::new(field, "must have at most 2 decimal places"))
            }
            Ok(value) => Ok(value),
            Err(_) => Err(FieldError::new(
                field,
                "must be a number from 0 to 99999999.99 with at most 2 decimal places",
            )),
        }
    }

    /// A JSON integer (no fractional part) within `min..=max`; `message` says what is expected.
    pub fn integer<T>(
        &mut self,
        field: &'static str,
        min: T,
        max: T,
        message: &'static str,
    ) -> Field<T>
    where
        T: TryFrom<i64> + PartialOrd,
    {
        match self.0.remove(field) {
            None | Some(Value::Null) => Err(FieldError::new(field, "is required")),
            Some(Value::Number(number)) => number
                .as_i64()
                .and_then(|n| T::try_from(n).ok())
                .filter(|n| (min..=max).contains(n))
                .ok_or_else(|| FieldError::new(field, message)),
            Some(_) => Err(FieldError::new(field, message)),
        }
    }
}

/// "Blank" as the contract defines it: empty, or only spaces, tabs, CR and LF.
fn is_blank(s: &str) -> bool {
    s.chars().all(|c| matches!(c, ' ' | '\t' | '\r' | '\n'))
}

fn checked_string(field: &'static str, s: String, max_chars: usize) -> Field<String> {
    if s.chars().count() > max_chars {
        Err(FieldError::new(
            field,
            format!("must be at most {max_chars} characters"),
        ))
    } else if s.contains('\0') {
        Err(FieldError::new(field, "must not contain U+0000"))
    } else {
        Ok(s)
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    fn body(value: Value) -> JsonObject {
        JsonObject::try_from(value).unwrap()
    }

    fn price_of(raw: &str) -> Field<Decimal> {
        let mut obj: JsonObject = serde_json::from_str(&format!(r#"{{"price": {raw}}}"#)).unwrap();
        obj.price("price")
    }

    #[test]
    fn price_is_judged_by_value_as_written() {
        for ok in ["0", "1.230", "600.55", "99999999.99", "1e2", "-0", "0.10"] {
            assert!(price_of(ok).is_ok(), "{ok} should be accepted");
        }
        for bad in [
            "1.234",
            "-0.01",
            "100000000",
            "99999999.991",
            "1e-3",
            "1e40",
            "\"9.99\"",
            "true",
            "null",
        ] {
            assert!(price_of(bad).is_err(), "{bad} should be rejected");
        }
        assert_eq!(price_of("1.230").unwrap(), Decimal::new(123, 2));
    }

    #[test]
    fn required_strings_reject_blank_long_nul_and_non_strings() {
        let mut obj = body(json!({
            "blank": " \t\r\n", "long": "é".repeat(33), "nul": "a\u{0}b", "number": 5,
            "exact": "é".repeat(32), "padded": "  x  ",
        }));
        for field in ["blank", "long", "nul", "number", "missing"] {
            let error = obj.required_string(field, 32).unwrap_err();
            assert_eq!(error.field, field);
        }
        // Lengths count code points, not bytes; strings are kept as sent.
        assert_eq!(obj.required_string("exact", 32).unwrap(), "é".repeat(32));
        assert_eq!(obj.required_string("padded", 32).unwrap(), "  x  ");
    }

    #[test]
    fn optional_strings_allow_absent_null_and_blank() {
        let mut obj = body(json!({"null": null, "blank": "  ", "number": 1}));
        assert_eq!(obj.optional_string("absent", 10).unwrap(), None);
        assert_eq!(obj.optional_string("null", 10).unwrap(), None);
        assert_eq!(
            obj.optional_string("blank", 10).unwrap().as_deref(),
            Some("  ")
        );
        assert!(obj.optional_string("number", 10).is_err());
    }

    #[test]
    fn only_objects_are_bodies() {
        for value in [json!(null), json!([]), json!("x"), json!(42)] {
            assert!(JsonObject::try_from(value).is_err());
        }
        assert!(
            serde_json::from_str::<JsonObject>("[1, 2")
                .unwrap_err()
                .is_eof()
        );
    }

    #[test]
    fn integers_need_no_fraction_and_the_range() {
        let mut obj = body(json!({
            "ok": 2147483647, "over": 2147483648_i64, "fraction": 1.5, "text": "1", "negative": -1,
        }));
        let int = |obj: &mut JsonObject, field| obj.integer(field, 0, i32::MAX, "out of range");
        assert_eq!(int(&mut obj, "ok").unwrap(), i32::MAX);
        for field in ["over", "fraction", "text", "negative", "missing"] {
            assert!(int(&mut obj, field).is_err(), "{field} should be rejected");
        }
    }
}
