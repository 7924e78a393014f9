// Placeholder so the module library has a source until its first real file lands; delete then.
namespace mmdkit { [[maybe_unused]] static int placeholder_export = 0; }
