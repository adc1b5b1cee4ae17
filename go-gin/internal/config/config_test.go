package config

import "testing"

func TestLoad(t *testing.T) {
	tests := []struct {
		name    string
		env     map[string]string
		wantErr bool
		check   func(Config) bool
	}{
		{"defaults", map[string]string{"DATABASE_URL": "postgres://x"}, false, func(c Config) bool {
			return c.Addr() == "127.0.0.1:8080" && c.PoolSize == 10 && c.AvatarCount == 21 &&
				c.AvatarBaseURL == "https://avatar.example.com" && !c.LogRequests &&
				c.StockURL == "http://127.0.0.1:8099"
		}},
		{"overrides", map[string]string{"DATABASE_URL": "postgres://x", "HOST": "0.0.0.0", "PORT": "9000",
			"DB_POOL_SIZE": "3", "LOG_REQUESTS": "true"}, false, func(c Config) bool {
			return c.Addr() == "0.0.0.0:9000" && c.PoolSize == 3 && c.LogRequests
		}},
		{"stock URL with a trailing slash", map[string]string{"DATABASE_URL": "postgres://x",
			"STOCK_URL": "http://stock.internal:9000/"}, false, func(c Config) bool {
			return c.StockURL == "http://stock.internal:9000"
		}},
		{"stock URL not http", map[string]string{"DATABASE_URL": "postgres://x", "STOCK_URL": "127.0.0.1:8099"}, true, nil},
		{"stock URL with a path", map[string]string{"DATABASE_URL": "postgres://x", "STOCK_URL": "http://h:1/stock"}, true, nil},
		{"stock URL without a host", map[string]string{"DATABASE_URL": "postgres://x", "STOCK_URL": "http:///"}, true, nil},
		{"missing DATABASE_URL", map[string]string{}, true, nil},
		{"bad port", map[string]string{"DATABASE_URL": "postgres://x", "PORT": "http"}, true, nil},
		{"bad pool size", map[string]string{"DATABASE_URL": "postgres://x", "DB_POOL_SIZE": "0"}, true, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			for _, name := range []string{"DATABASE_URL", "HOST", "PORT", "DB_POOL_SIZE", "LOG_REQUESTS",
				"AVATAR_BASE_URL", "AVATAR_COUNT", "STOCK_URL"} {
				t.Setenv(name, tt.env[name])
			}
			cfg, err := Load()
			if (err != nil) != tt.wantErr {
				t.Fatalf("error %v, wantErr %v", err, tt.wantErr)
			}
			if tt.check != nil && !tt.check(cfg) {
				t.Fatalf("unexpected config %+v", cfg)
			}
		})
	}
}
