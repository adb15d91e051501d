// Package metrics holds the Prometheus collectors of the terminal (posd's /metrics) and
// of the fleet's claim service (posctl fleet serve/service --metrics), in the Prometheus
// text format (github.com/prometheus/client_golang). Each set has its own registry: no
// global one, nothing registered at init.
package metrics
