// Package mockllm is what the scripted model API mocks (mockanthropic,
// mockgemini, mockopenai) share: a server on loopback only (Base: listen,
// close, dump every request body, scripted failures), bounded body
// reads, JSON answers, server-sent events and the "slow" answer. Each
// mock embeds Base and adds its API's routes and script; one command,
// cmd/mockllm, serves any of them for scripts.
//
// The scripted failures are the same for every API: a prompt starting
// "down" always fails, "overloaded N …" fails the first N times (each
// API answers them with its own status and error body).
package mockllm
