// Host-side tensor maps for the TMA kernel cases (host code only: nothing here reaches the PTX that ptxmm
// checks). encode_tiled() builds a real CUtensorMap over a device buffer with the driver's
// cuTensorMapEncodeTiled, found through cudaGetDriverEntryPointByVersion so the programs link against the CUDA
// runtime alone (validate/device/kernels.sh builds every case the same way). The map is what the case's
// `--arg NAME=tensormap(BUFFER,DIMS,box=BOX)` describes: dimensions innermost first, packed rows, no
// interleave, no swizzle, no L2 promotion, out-of-bounds elements filled with zeros.
#pragma once

#include <cuda.h>
#include <cudaTypedefs.h>

#include "host.cuh"

template <class T>
CUtensorMapDataType tensor_map_type();
template <>
inline CUtensorMapDataType tensor_map_type<int>() { return CU_TENSOR_MAP_DATA_TYPE_INT32; }
template <>
inline CUtensorMapDataType tensor_map_type<float>() { return CU_TENSOR_MAP_DATA_TYPE_FLOAT32; }

// A map of the rank-N tensor `dims` (innermost first, packed) over `base`, copied box by box.
template <class T, int N>
CUtensorMap encode_tiled(T* base, const cuuint64_t (&dims)[N], const cuuint32_t (&box)[N]) {
  PFN_cuTensorMapEncodeTiled_v12000 encode = nullptr;
  cudaDriverEntryPointQueryResult found;
  CHECK(cudaGetDriverEntryPointByVersion("cuTensorMapEncodeTiled", reinterpret_cast<void**>(&encode), 12000,
                                         cudaEnableDefault, &found));
  if (found != cudaDriverEntryPointSuccess || !encode) {
    std::fprintf(stderr, "cuTensorMapEncodeTiled not found\n");
    std::exit(2);
  }
  cuuint64_t strides[N > 1 ? N - 1 : 1] = {};
  cuuint64_t stride = sizeof(T);
  for (int k = 0; k + 1 < N; ++k) strides[k] = stride *= dims[k];
  cuuint32_t elementStrides[N];
  for (int k = 0; k < N; ++k) elementStrides[k] = 1;
  CUtensorMap map;
  const CUresult r = encode(&map, tensor_map_type<T>(), N, base, dims, strides, box, elementStrides,
                            CU_TENSOR_MAP_INTERLEAVE_NONE, CU_TENSOR_MAP_SWIZZLE_NONE, CU_TENSOR_MAP_L2_PROMOTION_NONE,
                            CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
  if (r != CUDA_SUCCESS) {
    std::fprintf(stderr, "cuTensorMapEncodeTiled failed: %d\n", static_cast<int>(r));
    std::exit(2);
  }
  return map;
}
