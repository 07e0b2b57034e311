//! The checklist itself: every section title and every item, in display order.
//!
//! This file is the one place the checklist is defined. Ids are stable: answers are
//! stored against them, so rename the text freely but never change or reuse an id.

use super::model::{
    AppliesTo as A, Cite, EvidenceKind as V, Expert as E, Item, PrefillSource as P, Section as S, SectionInfo, Text,
};

/// No evidence asked for.
const NONE: &[V] = &[];
/// A quote field, the vendor's document, or a note of what the vendor said.
const QUOTE: &[V] = &[V::QuoteField, V::Document, V::Note];
/// As [`QUOTE`], or a run that observed it.
const QUOTE_OR_RUN: &[V] = &[V::QuoteField, V::Document, V::Run, V::Note];
/// A run, or a note of the test done.
const RUN: &[V] = &[V::Run, V::Note];
/// Only a recorded run: the item is about what a run measured.
const RUN_ONLY: &[V] = &[V::Run];
/// A note or a document.
const NOTE: &[V] = &[V::Note, V::Document];
/// The order's cost comparison, or a note of the estimate.
const COST: &[V] = &[V::CostComparison, V::Note];

/// Section titles, in order §1 to §6.
#[rustfmt::skip]
pub static SECTIONS: [SectionInfo; 6] = [
    SectionInfo { section: S::Gpu, title: Text { en: "GPU model and VRAM", zh: "显卡型号与显存" } },
    SectionInfo { section: S::Software, title: Text { en: "Software environment", zh: "软件环境" } },
    SectionInfo { section: S::Performance, title: Text { en: "Measured performance", zh: "实测性能" } },
    SectionInfo {
        section: S::StorageNetwork,
        title: Text { en: "Storage, network and data transfer", zh: "存储、网络与数据传输" },
    },
    SectionInfo { section: S::Billing, title: Text { en: "Billing and release rules", zh: "计费与释放规则" } },
    SectionInfo {
        section: S::Security,
        title: Text { en: "Security, permissions and failure handling", zh: "安全、权限与故障处理" },
    },
];

/// Every checklist item, grouped by section in order §1 to §6.
#[rustfmt::skip]
pub static ITEMS: &[Item] = &[
    // §1 GPU model and VRAM
    Item {
        id: "gpu.model_vram", section: S::Gpu, required: true, applies_to: A::All,
        expert: E::Procurement, prefill: Some(P::GpuModel), evidence: QUOTE,
        text: Text {
            en: "GPU model and VRAM per GPU are stated in the quote (e.g. A10 24 GB, A100 40/80 GB, L40S 48 GB).",
            zh: "报价写明显卡型号和单卡显存（如 A10 24GB、A100 40GB/80GB、L40S 48GB）。",
        },
        why: Text {
            en: "Nodes sold as \"GPU nodes\" differ widely; the model and VRAM decide what fits.",
            zh: "同样叫“GPU节点”，实际差异很大；型号和显存决定任务能否装下。",
        },
        cites: &[Cite::new(0, "§1")],
    },
    Item {
        id: "gpu.form_factor", section: S::Gpu, required: true, applies_to: A::All,
        expert: E::Procurement, prefill: Some(P::FormFactor), evidence: QUOTE,
        text: Text {
            en: "The GPU version is confirmed: PCIe, SXM or another variant.",
            zh: "确认显卡版本：PCIe、SXM 还是其他版本。",
        },
        why: Text {
            en: "The same model name comes in versions with different bandwidth and power.",
            zh: "同一型号有不同版本，带宽和功耗都不一样。",
        },
        cites: &[Cite::new(0, "§1")],
    },
    Item {
        id: "gpu.exclusivity", section: S::Gpu, required: true, applies_to: A::All,
        expert: E::Procurement, prefill: Some(P::Exclusivity), evidence: QUOTE,
        text: Text {
            en: "Whether the GPU is exclusive or sliced (MIG, vGPU) is confirmed, with the provider's isolation rules.",
            zh: "确认显卡是独占还是切分（MIG、vGPU），并以服务方的实际隔离规则为准。",
        },
        why: Text {
            en: "Sliced instances can do for low-concurrency inference and short tests; training, benchmarks and latency-sensitive services are better suited to exclusive GPUs.",
            zh: "切分实例适合低并发推理和短期测试；训练、性能测试和对延迟敏感的服务更适合独占节点。",
        },
        cites: &[Cite::new(0, "§1"), Cite::new(0, "FAQ")],
    },
    Item {
        id: "gpu.usable_vram", section: S::Gpu, required: true, applies_to: A::All,
        expert: E::Procurement, prefill: Some(P::UsableVram), evidence: QUOTE_OR_RUN,
        text: Text {
            en: "The quote states the actually usable VRAM per GPU, not only the nominal capacity.",
            zh: "报价说明单卡实际可用显存，而不只是标称容量。",
        },
        why: Text {
            en: "Usable VRAM can be lower than the card's capacity, especially on sliced instances.",
            zh: "实际可用显存可能低于显卡容量，切分实例尤其如此。",
        },
        cites: &[Cite::new(1, "§1"), Cite::new(1, "checklist")],
    },
    Item {
        id: "gpu.inference_peak", section: S::Gpu, required: true, applies_to: A::Inference,
        expert: E::Engineer, prefill: None, evidence: RUN,
        text: Text {
            en: "The VRAM peak of a single request is measured and the target concurrency is stated.",
            zh: "已测出单次请求的显存峰值，并明确目标并发量。",
        },
        why: Text {
            en: "A request that needs 10 GB alone may need far more when 8 run at once.",
            zh: "单请求约占 10GB 显存，同时处理 8 路请求时可能需要更大的余量。",
        },
        cites: &[Cite::new(0, "§1"), Cite::new(2, "four metrics")],
    },
    Item {
        id: "gpu.training_memory", section: S::Gpu, required: true, applies_to: A::Training,
        expert: E::Engineer, prefill: None, evidence: RUN,
        text: Text {
            en: "VRAM for model, gradients, optimizer state and checkpoints is accounted for at the planned batch size, input size and precision.",
            zh: "已按计划的批量大小、输入尺寸和精度，核算模型、梯度、优化器状态和检查点的显存占用。",
        },
        why: Text {
            en: "Parameter count alone underestimates training memory; shortfalls fail or fall back to slow CPU offload.",
            zh: "只看参数量会低估训练显存；显存不足时任务会报错，或退回 CPU 卸载而明显变慢。",
        },
        cites: &[Cite::new(0, "§1"), Cite::new(1, "§1")],
    },
    Item {
        id: "gpu.vram_headroom", section: S::Gpu, required: true, applies_to: A::All,
        expert: E::Engineer, prefill: Some(P::VramHeadroom), evidence: RUN,
        text: Text {
            en: "Usable VRAM leaves about 15–25 % headroom above the measured peak.",
            zh: "实际可用显存在实测峰值之上预留约 15%–25% 的余量。",
        },
        why: Text {
            en: "Framework caches, temporary tensors and concurrency swings need room; a peak near the limit is a warning sign.",
            zh: "框架缓存、临时张量和并发波动都要占空间；峰值贴近上限本身就是风险信号。",
        },
        cites: &[Cite::new(2, "step 1")],
    },
    Item {
        id: "gpu.memory_leak_check", section: S::Gpu, required: true, applies_to: A::All,
        expert: E::Engineer, prefill: Some(P::PeakNearLimit), evidence: RUN,
        text: Text {
            en: "If the VRAM peak is near the limit, memory leaks, data copies and unnecessary caches were looked for, instead of only lowering the batch size.",
            zh: "如果显存峰值已接近上限，已检查是否存在内存泄漏、数据复制或不必要的缓存，而不是仅靠降低批量大小解决。",
        },
        why: Text {
            en: "A peak close to the limit can come from a leak or an avoidable copy; a smaller batch only hides it and lowers throughput.",
            zh: "峰值贴近上限可能源于内存泄漏或可避免的数据复制；只降低批量大小会掩盖问题并降低吞吐。",
        },
        cites: &[Cite::new(2, "step 1")],
    },
    Item {
        id: "gpu.multi_gpu_interconnect", section: S::Gpu, required: true, applies_to: A::MultiGpu,
        expert: E::Engineer, prefill: Some(P::Interconnect), evidence: QUOTE,
        text: Text {
            en: "The program supports distributed training, and the GPU interconnect inside the node (e.g. NVLink, PCIe topology) is stated.",
            zh: "程序支持分布式训练，且服务方说明了节点内 GPU 之间的互联方式（如 NVLink、PCIe 拓扑）。",
        },
        why: Text {
            en: "Data- and model-parallel jobs exchange gradients constantly; a slow link leaves GPUs waiting.",
            zh: "数据并行和模型并行要频繁交换梯度或参数，互联太慢会让 GPU 空等通信。",
        },
        cites: &[Cite::new(0, "§1"), Cite::new(1, "§2")],
    },
    Item {
        id: "gpu.no_memory_pooling", section: S::Gpu, required: true, applies_to: A::MultiGpu,
        expert: E::Engineer, prefill: None, evidence: NONE,
        text: Text {
            en: "The plan does not assume VRAM of several GPUs pools into one larger memory.",
            zh: "方案不假设多张卡的显存会自动合并成一块更大的显存。",
        },
        why: Text {
            en: "Multiple GPUs normally do not pool VRAM; a model that does not fit one GPU needs sharding or quantization.",
            zh: "多张卡通常不会自动合并显存；单卡装不下的模型需要切分或量化。",
        },
        cites: &[Cite::new(1, "§1"), Cite::new(2, "step 1")],
    },
    // §2 Software environment
    Item {
        id: "env.stack_versions", section: S::Software, required: true, applies_to: A::All,
        expert: E::Engineer, prefill: Some(P::StackVersions), evidence: QUOTE,
        text: Text {
            en: "OS, NVIDIA driver, CUDA and cuDNN versions are stated by the provider.",
            zh: "服务方明确了操作系统、NVIDIA 驱动、CUDA 版本和 cuDNN 支持情况。",
        },
        why: Text {
            en: "Mismatched CUDA, driver and framework versions are the most common failure after renting.",
            zh: "租用后最常见的故障就是 CUDA、驱动和框架版本不匹配。",
        },
        cites: &[Cite::new(0, "§2"), Cite::new(1, "§3")],
    },
    Item {
        id: "env.project_requirements", section: S::Software, required: true, applies_to: A::All,
        expert: E::Engineer, prefill: None, evidence: NOTE,
        text: Text {
            en: "Project requirements (Python, PyTorch or other framework, CUDA, system packages) are listed and match the offered stack.",
            zh: "已列出项目要求（Python、PyTorch 等框架、CUDA、系统依赖），并与所提供的环境逐项比对一致。",
        },
        why: Text {
            en: "Framework, CUDA and driver versions must match each other; writing them down first makes the check concrete.",
            zh: "框架、CUDA 与驱动之间有版本对应关系；先写下要求，核对才有依据。",
        },
        cites: &[Cite::new(0, "§2"), Cite::new(1, "§3")],
    },
    Item {
        id: "env.image_tag", section: S::Software, required: true, applies_to: A::All,
        expert: E::Engineer, prefill: Some(P::SoftwareImage), evidence: QUOTE,
        text: Text {
            en: "An exact image tag is named, not a vague \"supports CUDA\".",
            zh: "写明具体的镜像标签，而不是“支持 CUDA”这类笼统描述。",
        },
        why: Text {
            en: "Only a pinned image can be compared with the project's requirements and rebuilt the same way.",
            zh: "只有固定的镜像标签才能和项目要求比对，重建实例时环境也不会变。",
        },
        cites: &[Cite::new(0, "§2"), Cite::new(1, "§3")],
    },
    Item {
        id: "env.access", section: S::Software, required: true, applies_to: A::All,
        expert: E::Engineer, prefill: Some(P::Access), evidence: QUOTE,
        text: Text {
            en: "Docker or container permissions, root access, SSH, required ports and data mounts are confirmed.",
            zh: "确认 Docker/容器权限、管理员权限、SSH 登录、所需端口和数据挂载方式。",
        },
        why: Text {
            en: "A node you cannot log into, install on or mount data on cannot run the job.",
            zh: "登录不了、装不了依赖或挂不上数据，节点再好也跑不起来。",
        },
        cites: &[Cite::new(0, "§2"), Cite::new(0, "order steps")],
    },
    Item {
        id: "env.special_dependencies", section: S::Software, required: false, applies_to: A::All,
        expert: E::Engineer, prefill: None, evidence: NONE,
        text: Text {
            en: "ROCm, specific compilers or custom operators: the image and install permissions are confirmed, and the environment can be kept or pinned.",
            zh: "如依赖 AMD ROCm、特定编译器或自定义算子：已确认镜像和安装权限，并能保留镜像或固定环境。",
        },
        why: Text {
            en: "Seeing the GPU does not mean every framework can use it; a pinned environment avoids re-debugging on every rebuild.",
            zh: "能识别显卡不代表所有框架都能调用；固定环境可避免每次重建都重新排查。",
        },
        cites: &[Cite::new(0, "§2"), Cite::new(1, "§3")],
    },
    Item {
        id: "env.clean_system_disk", section: S::Software, required: false, applies_to: A::All,
        expert: E::Engineer, prefill: Some(P::CleanSystemDisk), evidence: QUOTE,
        text: Text {
            en: "A kept image, a pinned environment or a clean system disk is available, so a rebuilt instance starts from a known state.",
            zh: "服务方能保留镜像、固定环境或提供干净系统盘，重建实例时从已知状态开始。",
        },
        why: Text {
            en: "Projects with special operators otherwise debug the environment again on every rebuild.",
            zh: "依赖特殊算子的项目，否则每次重建实例都要重复排查环境。",
        },
        cites: &[Cite::new(1, "§3")],
    },
    Item {
        id: "env.smoke_test", section: S::Software, required: true, applies_to: A::All,
        expert: E::Engineer, prefill: Some(P::SmokeRun), evidence: RUN,
        text: Text {
            en: "After start-up, GPU detection, a VRAM allocation, a CUDA sample or matrix test and our own minimal script all pass.",
            zh: "启动后已通过显卡识别、显存分配、CUDA 示例或矩阵计算，以及自己的最小测试脚本。",
        },
        why: Text {
            en: "A quick test right after start-up catches environment problems before real work is lost.",
            zh: "启动后先做简单测试，能在正式任务开始前发现环境问题。",
        },
        cites: &[Cite::new(0, "§2"), Cite::new(1, "§3")],
    },
    Item {
        id: "env.training_dry_run", section: S::Software, required: true, applies_to: A::Training,
        expert: E::Engineer, prefill: None, evidence: RUN,
        text: Text {
            en: "A short piece of real training code runs with mixed precision, data loading and model saving.",
            zh: "用一小段真实训练代码验证了混合精度、数据读取和模型保存。",
        },
        why: Text {
            en: "Hardware can work while the training loop still fails on precision, I/O or saving.",
            zh: "硬件可用，训练流程仍可能在精度、数据读取或保存环节出错。",
        },
        cites: &[Cite::new(1, "§3")],
    },
    // §3 Measured performance
    Item {
        id: "perf.benchmark", section: S::Performance, required: true, applies_to: A::All,
        expert: E::Engineer, prefill: Some(P::BenchmarkRun), evidence: RUN_ONLY,
        text: Text {
            en: "A 10–30 minute benchmark ran with the real model, real input size and a near-production batch size, warm-up excluded.",
            zh: "已用真实模型、真实输入尺寸和接近生产的批量大小连续运行 10–30 分钟基准测试，并去掉预热阶段。",
        },
        why: Text {
            en: "A short peak does not show sustained performance; the model name alone says even less.",
            zh: "短时间跑出的峰值不代表长期表现，只看型号更说明不了问题。",
        },
        cites: &[Cite::new(0, "§3"), Cite::new(2, "step 2")],
    },
    Item {
        id: "perf.metrics", section: S::Performance, required: true, applies_to: A::All,
        expert: E::Engineer, prefill: Some(P::RunMetrics), evidence: RUN_ONLY,
        text: Text {
            en: "Samples per second (or iterations per hour), single-request latency and VRAM peak are recorded.",
            zh: "已记录每秒样本数（或每小时迭代数）、单次响应时间和显存峰值。",
        },
        why: Text {
            en: "GPU utilization alone misleads: 90 % busy can be data copying or communication.",
            zh: "只看 GPU 利用率会误判：利用率 90% 也可能是在做数据复制或通信。",
        },
        cites: &[Cite::new(0, "§3"), Cite::new(2, "step 2")],
    },
    Item {
        id: "perf.throttling", section: S::Performance, required: true, applies_to: A::All,
        expert: E::Engineer, prefill: Some(P::Throttling), evidence: RUN_ONLY,
        text: Text {
            en: "No clock throttling was observed during the sustained run.",
            zh: "持续运行期间未出现降频。",
        },
        why: Text {
            en: "Temperature and other tenants can throttle a GPU; it only shows on longer runs.",
            zh: "温度和其他租户都可能导致降频，只有较长时间运行才看得出来。",
        },
        cites: &[Cite::new(0, "§3")],
    },
    Item {
        id: "perf.quote_vs_observed", section: S::Performance, required: true, applies_to: A::All,
        expert: E::Engineer, prefill: Some(P::QuoteVsObserved), evidence: RUN_ONLY,
        text: Text {
            en: "The VRAM usable in the test run matches the quote, taking exclusive or sliced allocation into account.",
            zh: "测试中实际可用的显存与报价一致，并已考虑独占或切分的影响。",
        },
        why: Text {
            en: "An exclusive A100 and a sliced one differ in throughput and usable VRAM.",
            zh: "独占的 A100 与被切分的实例，实际吞吐和可用显存可能不同。",
        },
        cites: &[Cite::new(0, "§3")],
    },
    Item {
        id: "perf.sync_bandwidth", section: S::Performance, required: true, applies_to: A::MultiGpu,
        expert: E::Engineer, prefill: None, evidence: RUN,
        text: Text {
            en: "Where parameters must be synchronized across GPUs, the communication bandwidth and synchronization time were tested.",
            zh: "若必须在多卡之间同步参数，已测试通信带宽和同步时间。",
        },
        why: Text {
            en: "More GPUs do not speed a job up in proportion; slow synchronization eats the gain.",
            zh: "节点拥有更多显卡，不等于任务能按卡数线性加速；同步太慢会抵消收益。",
        },
        cites: &[Cite::new(2, "parallelism"), Cite::new(1, "§2")],
    },
    Item {
        id: "perf.total_time", section: S::Performance, required: true, applies_to: A::Batch,
        expert: E::Engineer, prefill: Some(P::TotalTime), evidence: RUN,
        text: Text {
            en: "The total job time is recorded (for video or scientific work), not just the GPU name compared.",
            zh: "已记录任务总耗时（视频或科学计算），而不只比较显卡名称。",
        },
        why: Text {
            en: "For batch work the end-to-end time is what is paid for.",
            zh: "批处理任务最终按总耗时付费。",
        },
        cites: &[Cite::new(0, "§3"), Cite::new(2, "step 2")],
    },
    Item {
        id: "perf.bottleneck", section: S::Performance, required: false, applies_to: A::All,
        expert: E::Engineer, prefill: Some(P::Bottleneck), evidence: RUN,
        text: Text {
            en: "CPU preprocessing, disk reads and network waits were checked as possible bottlenecks.",
            zh: "已排查 CPU 预处理、磁盘读取和网络等待是否是瓶颈。",
        },
        why: Text {
            en: "If a much faster GPU gains only 10–20 %, the limit is elsewhere and a bigger GPU will not help.",
            zh: "若理论算力差距明显而实测吞吐只差约 10%–20%，瓶颈在别处，升级显卡收益有限。",
        },
        cites: &[Cite::new(2, "step 2"), Cite::new(2, "FAQ")],
    },
    Item {
        id: "perf.two_spec_comparison", section: S::Performance, required: false, applies_to: A::All,
        expert: E::Engineer, prefill: Some(P::TwoSpecs), evidence: RUN,
        text: Text {
            en: "Two node specs were each run once with identical input, software and parameters, comparing cost per task and throughput.",
            zh: "在两种规格的节点上各运行一次，输入、软件和参数保持一致，并比较单任务成本和吞吐。",
        },
        why: Text {
            en: "More GPUs do not scale linearly; only a like-for-like run shows which spec is cheaper per result.",
            zh: "卡数增加不等于线性加速；只有同条件对比才能看出哪种规格单位成本更低。",
        },
        cites: &[Cite::new(2, "selection flow")],
    },
    // §4 Storage, network and data transfer
    Item {
        id: "store.disks", section: S::StorageNetwork, required: true, applies_to: A::All,
        expert: E::Procurement, prefill: Some(P::Disks), evidence: QUOTE,
        text: Text {
            en: "System and data disk sizes and types are stated and fit the data, weights and checkpoints.",
            zh: "写明系统盘和数据盘的容量与类型，足以容纳数据、模型权重和检查点。",
        },
        why: Text {
            en: "Training data, weights and checkpoints can take tens of GB or more; slow disks starve the GPU.",
            zh: "训练数据、模型权重和检查点可能占用数十 GB 甚至更多；低速磁盘会让 GPU 等数据。",
        },
        cites: &[Cite::new(0, "§4"), Cite::new(1, "§4"), Cite::new(2, "environment")],
    },
    Item {
        id: "store.small_files_tmp", section: S::StorageNetwork, required: true, applies_to: A::All,
        expert: E::Engineer, prefill: Some(P::TempDirectory), evidence: NONE,
        text: Text {
            en: "Many small files (images, audio) are packed into archives before transfer or cached locally, and the location of the temporary directory is known.",
            zh: "大量小文件（图片、音频等）已压缩归档后再传输或做本地缓存，并已确认临时目录的位置。",
        },
        why: Text {
            en: "Many small files read slowly from a cloud disk and leave the GPU waiting; a temporary directory on a small disk fills up.",
            zh: "频繁读取大量小文件时，低速云盘会让 GPU 等待数据；临时目录放在容量小的磁盘上容易写满。",
        },
        cites: &[Cite::new(1, "§4"), Cite::new(2, "environment")],
    },
    Item {
        id: "store.release_behaviour", section: S::StorageNetwork, required: true, applies_to: A::All,
        expert: E::Engineer, prefill: Some(P::DiskRelease), evidence: QUOTE,
        text: Text {
            en: "It is known whether the temporary disk is wiped at release and whether the data disk outlives the instance.",
            zh: "已确认临时盘是否随节点释放而删除，数据盘是否独立于实例生命周期。",
        },
        why: Text {
            en: "Anything left on a disk that is deleted at release is lost.",
            zh: "放在会随释放删除的磁盘上的数据，释放后就找不回来了。",
        },
        cites: &[Cite::new(0, "§4"), Cite::new(1, "§4")],
    },
    Item {
        id: "store.snapshots", section: S::StorageNetwork, required: true, applies_to: A::All,
        expert: E::Procurement, prefill: Some(P::Snapshots), evidence: QUOTE,
        text: Text {
            en: "Whether snapshots or object storage are offered is confirmed.",
            zh: "确认是否支持快照或对象存储。",
        },
        why: Text {
            en: "Snapshots or independent storage let work resume after the node is gone.",
            zh: "有快照或独立存储，节点回收后工作才能接着做。",
        },
        cites: &[Cite::new(0, "§4"), Cite::new(2, "environment")],
    },
    Item {
        id: "net.bandwidth_ports", section: S::StorageNetwork, required: true, applies_to: A::All,
        expert: E::Engineer, prefill: Some(P::Bandwidth), evidence: QUOTE,
        text: Text {
            en: "Public and internal bandwidth and port restrictions are stated.",
            zh: "写明公网带宽、内网带宽和端口限制。",
        },
        why: Text {
            en: "Uploading tens of GB from a local site is slow; bandwidth and distance set the preparation time.",
            zh: "从本地机房上传几十 GB 数据时，带宽和距离直接决定准备时间。",
        },
        cites: &[Cite::new(0, "§4")],
    },
    Item {
        id: "net.traffic_billing", section: S::StorageNetwork, required: true, applies_to: A::All,
        expert: E::Procurement, prefill: Some(P::EgressPricing), evidence: QUOTE,
        text: Text {
            en: "How traffic is billed is stated.",
            zh: "写明流量如何计费。",
        },
        why: Text {
            en: "Traffic costs grow with data movement and request volume.",
            zh: "数据搬运和请求量增加时，流量费用会随之上升。",
        },
        cites: &[Cite::new(0, "§4"), Cite::new(0, "§5")],
    },
    Item {
        id: "net.transfer_test", section: S::StorageNetwork, required: true, applies_to: A::All,
        expert: E::Engineer, prefill: Some(P::TransferTime), evidence: NOTE,
        text: Text {
            en: "A sample close to the real file size was transferred; upload, download and resume all work.",
            zh: "已传输一个接近实际大小的样本文件，上传、下载和断点续传都正常。",
        },
        why: Text {
            en: "Data that uploads slowly on every start leaves a paid GPU idle.",
            zh: "每次启动都要慢慢上传数据，付费的 GPU 就只能空等。",
        },
        cites: &[Cite::new(0, "§4"), Cite::new(1, "§4")],
    },
    Item {
        id: "net.inference_ingress", section: S::StorageNetwork, required: true, applies_to: A::Inference,
        expert: E::Engineer, prefill: None, evidence: NOTE,
        text: Text {
            en: "For online inference, public latency is measured and a fixed ingress (IP or domain) is available.",
            zh: "在线推理：已测公网延迟，并有固定的访问入口（IP 或域名）。",
        },
        why: Text {
            en: "Clients need a stable address, and latency is part of the service.",
            zh: "客户端需要稳定的入口，而延迟本身就是服务质量的一部分。",
        },
        cites: &[Cite::new(0, "§4")],
    },
    Item {
        id: "net.cross_node", section: S::StorageNetwork, required: true, applies_to: A::MultiGpu,
        expert: E::Engineer, prefill: None, evidence: QUOTE,
        text: Text {
            en: "Cross-node bandwidth and RDMA support are stated in figures, not as \"high-speed network\".",
            zh: "跨节点网络带宽和是否支持 RDMA 有明确数值，而不是“高速网络”之类的笼统说法。",
        },
        why: Text {
            en: "Multi-node training depends on sustained inter-node communication.",
            zh: "多节点训练依赖持续的跨节点通信性能。",
        },
        cites: &[Cite::new(1, "§2")],
    },
    // §5 Billing and release rules
    Item {
        id: "bill.all_items", section: S::Billing, required: true, applies_to: A::All,
        expert: E::Procurement, prefill: Some(P::OtherFees), evidence: QUOTE,
        text: Text {
            en: "Every billed item is priced: CPU, memory, disks, IP, traffic, snapshots and storage, not only the GPU hourly rate.",
            zh: "每一项收费都有价格：CPU、内存、磁盘、IP、流量、快照和存储，而不只是 GPU 每小时单价。",
        },
        why: Text {
            en: "The hourly GPU price is only part of the bill.",
            zh: "GPU 每小时单价只是账单的一部分。",
        },
        cites: &[Cite::new(0, "§5"), Cite::new(1, "§5"), Cite::new(1, "checklist")],
    },
    Item {
        id: "bill.image_management_fees", section: S::Billing, required: true, applies_to: A::All,
        expert: E::Procurement, prefill: Some(P::ListedFees), evidence: QUOTE,
        text: Text {
            en: "Fees for images and management services are stated, or stated not to apply.",
            zh: "已写明镜像和管理服务的费用，或写明不收取。",
        },
        why: Text {
            en: "Besides the GPU, a bill can include images, IP addresses and management services.",
            zh: "除 GPU 外，实际费用还可能包括镜像、IP 或管理服务。",
        },
        cites: &[Cite::new(1, "§5")],
    },
    Item {
        id: "bill.minimum_duration", section: S::Billing, required: true, applies_to: A::All,
        expert: E::Procurement, prefill: Some(P::MinimumDuration), evidence: QUOTE,
        text: Text {
            en: "Any minimum usage duration is known.",
            zh: "已确认是否有最低使用时长。",
        },
        why: Text {
            en: "A minimum duration can cost more than the planned run.",
            zh: "最低使用时长可能让费用超过实际计划用量。",
        },
        cites: &[Cite::new(0, "§5")],
    },
    Item {
        id: "bill.auto_renewal", section: S::Billing, required: true, applies_to: A::All,
        expert: E::Procurement, prefill: Some(P::AutoRenewal), evidence: QUOTE,
        text: Text {
            en: "Auto-renewal is known and set as intended.",
            zh: "已确认是否自动续费，并按需要设置。",
        },
        why: Text {
            en: "Unnoticed renewal keeps charging after the work is done.",
            zh: "没注意到自动续费，任务结束后仍会继续扣费。",
        },
        cites: &[Cite::new(0, "§5")],
    },
    Item {
        id: "bill.early_release", section: S::Billing, required: true, applies_to: A::All,
        expert: E::Procurement, prefill: Some(P::EarlyRelease), evidence: QUOTE,
        text: Text {
            en: "Early release rules (refund, penalty, mid-term changes) are known.",
            zh: "已确认提前释放的规则（退款、违约金、中途调整）。",
        },
        why: Text {
            en: "Prepaid or monthly plans add idle risk if the work ends early.",
            zh: "包周期或按月方案在任务提前结束时会带来闲置风险。",
        },
        cites: &[Cite::new(0, "§5"), Cite::new(2, "total cost")],
    },
    Item {
        id: "bill.stop_vs_release", section: S::Billing, required: true, applies_to: A::All,
        expert: E::Procurement, prefill: Some(P::StoppedBilling), evidence: QUOTE,
        text: Text {
            en: "\"Shut down\" and \"release\" are known to be different actions, including whether disks keep billing after shutdown.",
            zh: "已确认“关机”和“释放”是否是两个不同动作，以及关机后磁盘是否继续收费。",
        },
        why: Text {
            en: "Some platforms keep the disks, and the charges, after shutdown.",
            zh: "有些平台关机后仍保留磁盘并继续收费。",
        },
        cites: &[Cite::new(0, "§5"), Cite::new(2, "environment")],
    },
    Item {
        id: "bill.startup_time", section: S::Billing, required: false, applies_to: A::All,
        expert: E::Engineer, prefill: Some(P::StartupTime), evidence: QUOTE,
        text: Text {
            en: "For short tests, per-second or per-hour billing and the instance start-up time are known.",
            zh: "短期测试：已确认是否按秒或按小时计费，以及实例的启动速度。",
        },
        why: Text {
            en: "Short tests pay for every start; a slow start-up is paid waiting.",
            zh: "短期测试每次启动都要计费；启动慢，就是付费等待。",
        },
        cites: &[Cite::new(0, "§5")],
    },
    Item {
        id: "bill.inference_availability", section: S::Billing, required: true, applies_to: A::Inference,
        expert: E::Procurement, prefill: None, evidence: QUOTE,
        text: Text {
            en: "For online inference, the availability windows (when the node can serve requests) are stated.",
            zh: "在线推理：已确认节点的可用时段（何时能对外提供服务）。",
        },
        why: Text {
            en: "A service must be reachable when its users call it; traffic costs also rise as requests grow.",
            zh: "服务要在用户调用时可用；请求增加后，流量成本也会随之上升。",
        },
        cites: &[Cite::new(0, "§5")],
    },
    Item {
        id: "bill.budget_alert", section: S::Billing, required: true, applies_to: A::All,
        expert: E::Procurement, prefill: None, evidence: NONE,
        text: Text {
            en: "A budget alert is set before the job starts.",
            zh: "开始任务前已设置预算提醒。",
        },
        why: Text {
            en: "Forgetting to shut down keeps the meter running.",
            zh: "忘记关机会导致持续扣费。",
        },
        cites: &[Cite::new(0, "§5")],
    },
    Item {
        id: "bill.plan_choice", section: S::Billing, required: true, applies_to: A::All,
        expert: E::Procurement, prefill: Some(P::CostChoice), evidence: COST,
        text: Text {
            en: "Hourly versus monthly or prepaid billing is chosen from the expected run pattern.",
            zh: "已根据预计的运行方式选择按小时计费还是按月、包时长方案。",
        },
        why: Text {
            en: "Hourly suits experiments and scattered jobs; prepaid suits weeks of steady work once the setup is proven.",
            zh: "按小时适合实验和零散任务；环境验证稳定、需连续运行数周时，包周期更容易控制预算。",
        },
        cites: &[Cite::new(0, "§5"), Cite::new(2, "total cost"), Cite::new(2, "FAQ")],
    },
    Item {
        id: "bill.trial_rental", section: S::Billing, required: true, applies_to: A::All,
        expert: E::Procurement, prefill: Some(P::TrialRun), evidence: RUN,
        text: Text {
            en: "A short trial rental came before any long commitment or more nodes, recording the time of data preparation, the job, saving and release.",
            zh: "在长期租用或扩大节点数量前先短租试跑，并记录数据准备、运行、保存和释放资源各阶段的时间。",
        },
        why: Text {
            en: "A long commitment on an untested setup carries idle risk; the trial's stage times are the basis of the cost estimate.",
            zh: "未经验证就长期租用有闲置风险；试跑各阶段的时间是估算总成本的依据。",
        },
        cites: &[Cite::new(2, "selection flow"), Cite::new(1, "§5")],
    },
    Item {
        id: "bill.total_cost", section: S::Billing, required: false, applies_to: A::All,
        expert: E::Procurement, prefill: Some(P::TotalCost), evidence: COST,
        text: Text {
            en: "Total cost is estimated as unit price × hours + storage + transfer + idle time, with hours covering setup, data preparation, model download, reruns and export.",
            zh: "已按“节点单价×运行小时数＋存储费用＋数据传输费用＋闲置时间成本”估算总成本，小时数包含环境安装、数据准备、模型下载、失败重跑和结果导出。",
        },
        why: Text {
            en: "Main-program time alone underestimates the hours billed.",
            zh: "只算主程序运行时间，会低估实际计费时长。",
        },
        cites: &[Cite::new(2, "total cost"), Cite::new(0, "order steps")],
    },
    // §6 Security, permissions and failure handling
    Item {
        id: "sec.data_region", section: S::Security, required: true, applies_to: A::All,
        expert: E::Procurement, prefill: Some(P::DataRegion), evidence: QUOTE,
        text: Text {
            en: "The region where data is stored is known and acceptable.",
            zh: "已确认数据存放区域，且符合要求。",
        },
        why: Text {
            en: "Customer data, code and unreleased models may only be stored in approved places.",
            zh: "客户资料、代码和未公开模型只能存放在允许的区域。",
        },
        cites: &[Cite::new(0, "§6")],
    },
    Item {
        id: "sec.disk_encryption", section: S::Security, required: true, applies_to: A::All,
        expert: E::Engineer, prefill: None, evidence: QUOTE,
        text: Text {
            en: "Disk encryption is available where sensitive data is involved.",
            zh: "涉及敏感数据时，已确认磁盘加密。",
        },
        why: Text {
            en: "Disks holding customer data or unreleased models must be protected at rest.",
            zh: "存有客户资料或未公开模型的磁盘需要静态加密保护。",
        },
        cites: &[Cite::new(0, "§6")],
    },
    Item {
        id: "sec.credentials", section: S::Security, required: true, applies_to: A::All,
        expert: E::Engineer, prefill: None, evidence: NONE,
        text: Text {
            en: "Least-privilege keys are injected through environment variables or a secret manager, never written into code, images, command lines or logs.",
            zh: "使用最小权限账号，凭据通过环境变量或密钥管理功能注入，不写进代码、镜像、命令行或日志。",
        },
        why: Text {
            en: "A main-account key baked into an image leaks with the image.",
            zh: "把主账号密钥写进镜像，镜像泄露时密钥也随之泄露。",
        },
        cites: &[Cite::new(0, "§6"), Cite::new(1, "§6")],
    },
    Item {
        id: "sec.logs_and_access", section: S::Security, required: true, applies_to: A::All,
        expert: E::Engineer, prefill: None, evidence: NONE,
        text: Text {
            en: "Log retention is known, and datasets, keys and logs have separate access permissions.",
            zh: "已确认日志保留方式，数据集、密钥和日志分别设置访问权限。",
        },
        why: Text {
            en: "Logs are needed to diagnose failures but can expose data if everyone can read them.",
            zh: "日志是排查故障的依据，但权限过宽也会泄露数据。",
        },
        cites: &[Cite::new(0, "§6"), Cite::new(1, "§6")],
    },
    Item {
        id: "sec.private_network", section: S::Security, required: true, applies_to: A::All,
        expert: E::Procurement, prefill: Some(P::PrivateNetwork), evidence: QUOTE,
        text: Text {
            en: "Whether the provider offers a private network, access control and a data-deletion mechanism is confirmed.",
            zh: "已确认服务方是否提供专用网络、访问控制和数据删除机制。",
        },
        why: Text {
            en: "Without network isolation and access control, more people can reach the node than the data allows.",
            zh: "没有网络隔离和访问控制，能接触节点的人就会超出数据允许的范围。",
        },
        cites: &[Cite::new(1, "§6")],
    },
    Item {
        id: "sec.cleanup_after_release", section: S::Security, required: true, applies_to: A::All,
        expert: E::Procurement, prefill: Some(P::Cleanup), evidence: QUOTE,
        text: Text {
            en: "How data is deleted after release is known; temporary files are cleaned and the bill checked when the job ends.",
            zh: "已确认资源释放后的数据清理方式；任务结束后清理临时文件并核对账单。",
        },
        why: Text {
            en: "Data left behind on released resources is outside our control.",
            zh: "释放后残留的数据就不在我们的控制之内了。",
        },
        cites: &[Cite::new(0, "§6"), Cite::new(1, "§6")],
    },
    Item {
        id: "sec.fault_handling", section: S::Security, required: true, applies_to: A::All,
        expert: E::Procurement, prefill: Some(P::FaultHandling), evidence: NONE,
        text: Text {
            en: "The fault process is known: system reinstall, console access, timestamped fault records, automatic restart.",
            zh: "已问清故障处理流程：能否重装系统、是否提供控制台、故障是否有时间记录、能否自动重启。",
        },
        why: Text {
            en: "Jobs stop on reclaims, network cuts and full disks; recovery speed depends on these tools.",
            zh: "实例回收、网络中断、磁盘写满都会让任务中断，恢复快慢取决于这些手段。",
        },
        cites: &[Cite::new(0, "§6"), Cite::new(1, "§6")],
    },
    Item {
        id: "sec.disk_migration", section: S::Security, required: false, applies_to: A::All,
        expert: E::Procurement, prefill: Some(P::DiskMigration), evidence: QUOTE,
        text: Text {
            en: "Whether the data disk can be migrated to another node is known.",
            zh: "已确认数据盘能否迁移到其他节点。",
        },
        why: Text {
            en: "A movable data disk turns a node failure into a restart instead of a rebuild.",
            zh: "数据盘能迁移，节点故障时就只需重启而不必从头重建。",
        },
        cites: &[Cite::new(0, "§6")],
    },
    Item {
        id: "sec.training_record", section: S::Security, required: true, applies_to: A::Training,
        expert: E::Engineer, prefill: None, evidence: NOTE,
        text: Text {
            en: "The training configuration, dependency versions and random seed are recorded so the job can be restarted.",
            zh: "已记录训练配置、依赖版本和随机种子，便于重新启动。",
        },
        why: Text {
            en: "After an interruption, only a recorded setup restarts the same run.",
            zh: "任务中断后，只有记录下来的配置才能按原样重新启动。",
        },
        cites: &[Cite::new(1, "§6")],
    },
    Item {
        id: "sec.checkpoints", section: S::Security, required: true, applies_to: A::All,
        expert: E::Engineer, prefill: Some(P::CheckpointStorage), evidence: NOTE,
        text: Text {
            en: "Checkpoints are saved to persistent storage at an interval matched to the job's value (minutes to hours), and restoring one was tested before release.",
            zh: "检查点按任务价值设定间隔（数分钟到数小时）保存到持久化位置，并在释放节点前验证过能重新加载。",
        },
        why: Text {
            en: "With tested checkpoints an interruption costs minutes, not the whole run.",
            zh: "检查点可用，中断只损失几分钟，而不必从头开始。",
        },
        cites: &[Cite::new(0, "§6"), Cite::new(0, "FAQ"), Cite::new(1, "§6")],
    },
    Item {
        id: "sec.support_contact", section: S::Security, required: true, applies_to: A::All,
        expert: E::Procurement, prefill: Some(P::SupportContact), evidence: NOTE,
        text: Text {
            en: "A failure-recovery contact at the provider is named.",
            zh: "已确认服务方的故障恢复联系人。",
        },
        why: Text {
            en: "The order steps end with naming who to call before the job is submitted.",
            zh: "下单顺序的最后一步，就是在正式提交前确认故障恢复联系人。",
        },
        cites: &[Cite::new(0, "order steps")],
    },
];
