// Internal error helpers shared by every primitive (the declarations are public in
// msplit/detail/error.cuh because the template API records errors too).
#pragma once
#include "msplit/detail/error.cuh"
