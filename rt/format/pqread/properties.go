// Licensed to the Apache Software Foundation (ASF) under one
// or more contributor license agreements.  See the NOTICE file
// distributed with this work for additional information
// regarding copyright ownership.  The ASF licenses this file
// to you under the Apache License, Version 2.0 (the
// "License"); you may not use this file except in compliance
// with the License.  You may obtain a copy of the License at
//
// http://www.apache.org/licenses/LICENSE-2.0
//
// Unless required by applicable law or agreed to in writing, software
// distributed under the License is distributed on an "AS IS" BASIS,
// WITHOUT WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied.
// See the License for the specific language governing permissions and
// limitations under the License.
//
// Changed for Þund: this file is arrow-go v18.9.0's parquet/pqarrow/properties.go,
// with the changes that doc.go lists (NOTICE.txt: arrow-go's notice).

package pqread

// ArrowReadProperties is the properties to define how to read a parquet file
// into arrow arrays.
type ArrowReadProperties struct {
	// If Parallel is true, then functions which read multiple columns will read
	// those columns in parallel from the file with a number of readers equal
	// to the number of columns. Otherwise columns are read serially.
	Parallel bool
	// BatchSize is the size used for calls to NextBatch when reading whole columns
	BatchSize int64
	// PreAllocBinaryData, if true, pre-allocates the BinaryBuilder data buffer at
	// the start of each batch using TotalUncompressedSize and NumRows from the
	// column chunk metadata. This reduces O(log n) realloc cycles per row group
	// for large binary/string columns. Disabled by default.
	PreAllocBinaryData bool

	readDictIndices   map[int]struct{}
	forceLargeIndices map[int]struct{}
}

// SetForceLarge determines whether a particular column, if it is String or Binary,
// will use the LargeString/LargeBinary variants (with int64 offsets) instead of int32
// offsets. This is specifically useful if you know that particular columns contain more
// than 2GB worth of byte data which would prevent use of int32 offsets.
//
// Passing false will use the default variants while passing true will use the large
// variant. If the passed column index is not a string or binary column, then this will
// have no effect.
func (props *ArrowReadProperties) SetForceLarge(colIdx int, forceLarge bool) {
	if props.forceLargeIndices == nil {
		props.forceLargeIndices = make(map[int]struct{})
	}

	if forceLarge {
		props.forceLargeIndices[colIdx] = struct{}{}
	} else {
		delete(props.forceLargeIndices, colIdx)
	}
}

func (props *ArrowReadProperties) ForceLarge(colIdx int) bool {
	if props.forceLargeIndices == nil {
		return false
	}

	_, ok := props.forceLargeIndices[colIdx]
	return ok
}

// SetReadDict determines whether to read a particular column as dictionary
// encoded or not.
func (props *ArrowReadProperties) SetReadDict(colIdx int, readDict bool) {
	if props.readDictIndices == nil {
		props.readDictIndices = make(map[int]struct{})
	}

	if readDict {
		props.readDictIndices[colIdx] = struct{}{}
	} else {
		delete(props.readDictIndices, colIdx)
	}
}

func (props *ArrowReadProperties) ReadDict(colIdx int) bool {
	if props.readDictIndices == nil {
		return false
	}

	_, ok := props.readDictIndices[colIdx]
	return ok
}
