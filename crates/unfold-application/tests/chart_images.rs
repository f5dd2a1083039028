//! A comparison's chart saved as the app drew it: an SVG or a PNG, written only when it is what it
//! claims, within its bounds, and holds no secret.

use unfold_application::chart_images::{write_chart, ChartImage, MAX_PNG_BYTES};
use unfold_live::{ApiKey, Secrets};

const SVG: &str = r#"<?xml version="1.0" encoding="UTF-8"?>
<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 640 280"><text>Prompt tokens per model call</text></svg>"#;

fn png() -> Vec<u8> {
    let mut bytes = b"\x89PNG\r\n\x1a\n".to_vec();
    bytes.extend_from_slice(&[0, 0, 0, 13, b'I', b'H', b'D', b'R', 0xff, 0]);
    bytes
}

#[test]
fn the_chart_is_written_as_an_svg_or_as_the_png_drawn_from_it() {
    let dir = tempfile::tempdir().unwrap();
    let svg_file = dir.path().join("chart.svg");
    write_chart(&svg_file, &ChartImage::Svg { svg: SVG.to_owned() }, &Secrets::none()).unwrap();
    assert_eq!(std::fs::read_to_string(&svg_file).unwrap(), SVG);

    let png_file = dir.path().join("chart.png");
    write_chart(&png_file, &ChartImage::Png { svg: SVG.to_owned(), png: png() }, &Secrets::none()).unwrap();
    assert_eq!(std::fs::read(&png_file).unwrap(), png(), "the bytes as they came, not text");
}

#[test]
fn what_is_not_an_svg_or_a_png_or_too_large_is_refused_and_nothing_is_written() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("chart.png");
    let cases = [
        (ChartImage::Svg { svg: "<html><svg></svg></html>".to_owned() }, "/svg: the chart is not an SVG document"),
        (ChartImage::Svg { svg: "<svg>".to_owned() }, "/svg: the chart is not an SVG document"),
        (ChartImage::Png { svg: SVG.to_owned(), png: b"GIF89a".to_vec() }, "/png: the chart's image is not a PNG file"),
        (
            ChartImage::Png { svg: SVG.to_owned(), png: vec![0x89; MAX_PNG_BYTES + 1] },
            "/png: the chart's PNG is larger than",
        ),
        (
            ChartImage::Svg { svg: format!("<svg>{}</svg>", " ".repeat(5 << 20)) },
            "/svg: the chart's SVG is larger than",
        ),
    ];
    for (image, said) in cases {
        let refused = write_chart(&file, &image, &Secrets::none()).unwrap_err().to_string();
        let place = format!("{}: {said}", file.display());
        assert!(refused.contains(&place), "{refused}");
    }
    assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 0, "nothing is written");
}

/// A live model's key in the chart (a lane or model named after it) keeps it from the file, PNG
/// or SVG: the PNG is checked through the SVG it was drawn from.
#[test]
fn a_chart_that_would_hold_the_key_is_refused() {
    use unfold_test_support::hostile_stream::KEY;
    let profile =
        serde_json::json!({ "name": "local", "kind": "openai", "base_url": "http://127.0.0.1:9/v1", "model": "m" });
    let secrets = Secrets::of_provider(&serde_json::from_value(profile).unwrap(), Some(&ApiKey::new(KEY)));
    let svg = SVG.replace("Prompt tokens", KEY);
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("chart.png");
    for image in [ChartImage::Svg { svg: svg.clone() }, ChartImage::Png { svg: svg.clone(), png: png() }] {
        let refused = write_chart(&file, &image, &secrets).unwrap_err().to_string();
        assert!(refused.contains("holds the API key"), "{refused}");
    }
    assert!(!file.exists());
}
