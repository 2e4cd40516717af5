#!/usr/bin/env python3
"""many_rewrites.py N: prints a Kernel module (SPIR-V assembly) whose one function has N
lowerable bitcasts, as_float3(float4), each followed by a store: N rewrites for `lower`, so
that its output is written in many spans (more than one writev() batch of the CLI)."""
import sys


def main():
    n = int(sys.argv[1])
    print("""               OpCapability Addresses
               OpCapability Kernel
               OpMemoryModel Physical64 OpenCL
               OpEntryPoint Kernel %main "many_rewrites"
       %void = OpTypeVoid
      %float = OpTypeFloat 32
    %v4float = OpTypeVector %float 4
    %v3float = OpTypeVector %float 3
%ptr_v4float = OpTypePointer CrossWorkgroup %v4float
%ptr_v3float = OpTypePointer CrossWorkgroup %v3float
       %fnty = OpTypeFunction %void %ptr_v4float %ptr_v3float
       %main = OpFunction %void None %fnty
         %in = OpFunctionParameter %ptr_v4float
        %out = OpFunctionParameter %ptr_v3float
      %entry = OpLabel
       %rgba = OpLoad %v4float %in Aligned 16""")
    for i in range(n):
        print("        %%c%d = OpBitcast %%v3float %%rgba" % i)
        print("               OpStore %%out %%c%d Aligned 16" % i)
    print("""               OpReturn
               OpFunctionEnd""")
    return 0


if __name__ == "__main__":
    sys.exit(main())
