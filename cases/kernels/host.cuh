// Host-side helpers of the kernel cases (host code only: nothing here reaches the PTX that ptxmm checks).
// Each case's main() allocates the buffers its ptxmm-launch header describes, launches with the same grid,
// block and cluster, waits with a watchdog (a kernel that never finishes is reported as a hang instead of
// blocking the GPU run forever) and prints one `name[i]=value` line per observed element, so the program is
// also a sanity check on a GPU.
#pragma once

#include <cuda_runtime.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <initializer_list>
#include <thread>
#include <type_traits>
#include <vector>

#define CHECK(call)                                                                                      \
  do {                                                                                                   \
    cudaError_t err_ = (call);                                                                           \
    if (err_ != cudaSuccess) {                                                                           \
      std::fprintf(stderr, "%s:%d: %s: %s\n", __FILE__, __LINE__, #call, cudaGetErrorString(err_));     \
      std::exit(2);                                                                                      \
    }                                                                                                    \
  } while (0)

// A device buffer of n elements holding `init` followed by zeros (the `--arg NAME=TYPE[N]=v0,v1,...` rule).
template <class T>
T* device_buffer(std::size_t n, std::vector<T> init = {}) {
  init.resize(n, T{});
  T* d = nullptr;
  CHECK(cudaMalloc(&d, n * sizeof(T)));
  CHECK(cudaMemcpy(d, init.data(), n * sizeof(T), cudaMemcpyHostToDevice));
  return d;
}

template <class T>
std::vector<T> host_copy(const T* d, std::size_t n) {
  std::vector<T> h(n);
  CHECK(cudaMemcpy(h.data(), d, n * sizeof(T), cudaMemcpyDeviceToHost));
  return h;
}

inline void print_value(const char* name, std::size_t i, long long v) { std::printf("%s[%zu]=%lld\n", name, i, v); }
inline void print_value(const char* name, std::size_t i, double v) { std::printf("%s[%zu]=%g\n", name, i, v); }

// Prints the given elements of a device buffer of n elements, one `name[i]=value` line each.
template <class T>
void print(const char* name, const T* d, std::size_t n, std::initializer_list<std::size_t> indices) {
  const std::vector<T> h = host_copy(d, n);
  for (std::size_t i : indices) {
    if constexpr (std::is_floating_point_v<T>) {
      print_value(name, i, static_cast<double>(h[i]));
    } else {
      print_value(name, i, static_cast<long long>(h[i]));
    }
  }
}

// Prints how many of the n elements differ from want(i): the line a racy kernel's GPU run is judged by.
template <class T, class F>
void print_mismatches(const char* name, const T* d, std::size_t n, F want) {
  const std::vector<T> h = host_copy(d, n);
  std::size_t bad = 0;
  for (std::size_t i = 0; i < n; ++i) bad += h[i] != want(i);
  std::printf("%s mismatches=%zu of %zu\n", name, bad, n);
}

// Waits for the launched kernel; one that is still running after `seconds` is a hang: say so and exit 3.
inline void finish(double seconds = 10) {
  CHECK(cudaGetLastError());
  const auto start = std::chrono::steady_clock::now();
  while (cudaStreamQuery(0) == cudaErrorNotReady) {
    if (std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count() > seconds) {
      std::printf("HANG: the kernel did not finish within %g s\n", seconds);
      std::fflush(stdout);
      std::_Exit(3);
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
  CHECK(cudaDeviceSynchronize());
}
