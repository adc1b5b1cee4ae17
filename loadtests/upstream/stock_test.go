package main

import (
	"io"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"
)

func testConfig(delay string) config {
	low, high, err := parseDelay(delay)
	if err != nil {
		panic(err)
	}
	return config{delayMin: low, delayMax: high, seed: 7, items: 100_000}
}

func get(t *testing.T, handler http.Handler, path string) (int, string) {
	t.Helper()
	recorder := httptest.NewRecorder()
	handler.ServeHTTP(recorder, httptest.NewRequest(http.MethodGet, path, nil))
	body, _ := io.ReadAll(recorder.Result().Body)
	return recorder.Code, string(body)
}

func TestQuantityOfAnItemAndNotFoundBeyond(t *testing.T) {
	handler := newStock(testConfig("0")).routes()
	cases := []struct {
		path   string
		status int
		body   string
	}{
		{"/stock/1", 200, `{"itemId":1,"quantity":919}`},
		{"/stock/12345", 200, `{"itemId":12345,"quantity":55}`},
		{"/stock/100000", 200, `{"itemId":100000,"quantity":0}`},
		{"/stock/100001", 404, `{"status":404,"detail":"no such item"}`},
		{"/stock/0", 404, `{"status":404,"detail":"no such item"}`},
		{"/stock/abc", 404, `{"status":404,"detail":"no such item"}`},
		{"/health", 200, `{"status":"UP"}`},
	}
	for _, c := range cases {
		status, body := get(t, handler, c.path)
		if status != c.status || body != c.body {
			t.Errorf("GET %s = %d %s, want %d %s", c.path, status, body, c.status, c.body)
		}
	}
}

func TestDelaysAreSeededUniformAndWithinTheRange(t *testing.T) {
	s := newStock(testConfig("1-50"))
	again := newStock(testConfig("1-50"))
	seen := map[time.Duration]int{}
	for n := uint64(1); n <= 50_000; n++ {
		d := s.delay(n)
		if d < time.Millisecond || d > 50*time.Millisecond || d%time.Millisecond != 0 {
			t.Fatalf("delay %d = %v, outside 1-50 whole ms", n, d)
		}
		if d != again.delay(n) {
			t.Fatalf("delay %d differs between two services with the same seed", n)
		}
		seen[d]++
	}
	// 50,000 draws over 50 values: each about 1,000 times; a uniform draw stays within 20%.
	for ms := 1; ms <= 50; ms++ {
		if count := seen[time.Duration(ms)*time.Millisecond]; count < 800 || count > 1200 {
			t.Errorf("%d ms drawn %d times of 50,000: not uniform", ms, count)
		}
	}
	if other := newStock(config{delayMin: time.Millisecond, delayMax: 50 * time.Millisecond, seed: 8}); other.delay(1) == s.delay(1) && other.delay(2) == s.delay(2) {
		t.Error("another seed gives the same delays")
	}
}

func TestConfigurationIsReadAndBadValuesAreNamed(t *testing.T) {
	env := map[string]string{"PORT": "9100", "UPSTREAM_DELAY_MS": "5", "UPSTREAM_SEED": "3"}
	c, err := configFromEnvironment(func(name string) string { return env[name] })
	if err != nil || c.port != 9100 || c.delayMin != 5*time.Millisecond || c.delayMax != 5*time.Millisecond || c.seed != 3 || c.items != 100_000 {
		t.Fatalf("config = %+v, %v", c, err)
	}
	for name, bad := range map[string]string{"PORT": "http", "UPSTREAM_DELAY_MS": "50-1", "UPSTREAM_SEED": "-1", "UPSTREAM_ITEMS": "0"} {
		_, err := configFromEnvironment(func(n string) string {
			if n == name {
				return bad
			}
			return ""
		})
		if err == nil {
			t.Errorf("%s=%q was accepted", name, bad)
		}
	}
}
